// A real analysis on the sample provider in a test process: the app under test serves the sample
// sites the provider's websites point at (on a loopback port), so the report has every section a
// report from the form has (listing, homepage signals, reviews, the visibility grid).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { analyseBusiness } from '../../api/report/analyse.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from './context.ts';

export interface SampleAnalysis {
  t: TestContext;
  analyse: (input?: Partial<ReportInput>) => Promise<ReportData>;
  close: () => Promise<void>;
}

export async function startSampleAnalysis(): Promise<SampleAnalysis> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const t = await createTestContext({ PUBLIC_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  handler = getRequestListener(t.app.fetch);
  return {
    t,
    analyse: (input = {}) => analyseBusiness(t.ctx, { businessId: 'b-sample', fullName: 'Dana Example', email: 'dana@example.com', company: 'Barton Springs Dental', website: '', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', ...input }),
    close: async () => {
      await t.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

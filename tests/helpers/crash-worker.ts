// A worker process for the crash test: `HANG_IN_RENDER=1` makes it stop dead while rendering (the
// test then kills it with SIGKILL); without it, it runs jobs normally. Fixture analysis.
import { createContext } from '../../api/context.ts';
import { loadEnv } from '../../api/env.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { inlineRenderer, type Renderer } from '../../api/report/render/renderer.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const ctx = await createContext(loadEnv(), { migrate: false });
const hang = process.env.HANG_IN_RENDER === '1';
const inline = inlineRenderer();
const renderer: Renderer = {
  kind: 'inline',
  async render(data, links) {
    if (hang) {
      process.stdout.write('RENDERING\n');
      return new Promise(() => {});
    }
    return inline.render(data, links);
  },
  close: async () => {},
};
const worker = createWorker(ctx, {
  registry: createRegistry({ analyse: async () => (process.stdout.write('ANALYSED\n'), reportDataFixture()), renderer }),
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  pollMs: 50,
});
worker.start();
process.stdout.write('READY\n');
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});

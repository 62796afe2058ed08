// A worker process for the crash tests. `STOP_AT` makes it stop dead at one point of a report job
// and print `STOPPED <point>` (the test then kills it with SIGKILL):
//   analysed  - the analysis is done, nothing persisted yet
//   rendering - inside the render
//   delivered - the e-mail is sent and recorded, the job not yet marked done (report and client
//               report jobs)
// (The two points inside the SMTP conversation are made by the test's mail server, which holds
// the message before or after keeping it.) Without STOP_AT it runs jobs normally. Fixture analysis.
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import type { Renderer } from '../../api/report/render/renderer.ts';
import { lightRenderer } from './light-renderer.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const ctx = await createContext(loadEnv(), { migrate: false });
const stopAt = process.env.STOP_AT ?? '';

/** Stops this process where it stands, without spinning a core, until the test kills it. */
function stopDead(point: string): never {
  process.stdout.write(`STOPPED ${point}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  throw new Error('unreachable');
}

const inline = lightRenderer();
const renderer: Renderer = {
  kind: 'inline',
  async render(data, links, branding, options) {
    if (stopAt === 'rendering') {
      // Blocked inside the render: the event loop is held as a long render would hold it.
      setTimeout(() => stopDead('rendering'), 0);
      return new Promise(() => {});
    }
    return inline.render(data, links, branding, options);
  },
  close: async () => {},
};
const worker = createWorker(ctx, {
  registry: createRegistry({
    analyse: async () => (process.stdout.write('ANALYSED\n'), reportDataFixture()),
    renderer,
    onStage: (stage) => {
      if (stage === 'analyse' && stopAt === 'analysed') stopDead('analysed');
      if (stage === 'deliver' && stopAt === 'delivered') stopDead('delivered');
    },
  }),
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  pollMs: 50,
});
worker.start();
process.stdout.write('READY\n');
process.on('SIGTERM', async () => {
  await worker.stop();
  process.exit(0);
});

import { defineConfig } from 'vitest/config';
import { WaitingFirst } from './tests/helpers/sequencer.ts';

// Three projects, run as tiers by `npm test` (scripts/test.ts, docs/testing.md): unit tests that
// render nothing (part of `npm run check`), the renderers and the widget build (render), and the
// app, worker and processes on a real database (integration).
const RENDER = ['tests/unit/render.test.ts', 'tests/unit/report-scripts.test.ts', 'tests/unit/widget-size.test.ts', 'tests/unit/white-label-render.test.ts'];

export default defineConfig({
  test: {
    // Limits that catch a hang, not a slow machine: on a busy 2-core machine a test that starts
    // processes and renders files took over 20 s of wall time for a few seconds of CPU.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, though most of
    // an integration test's time is spent waiting on the processes it starts (sqld, workers, SMTP).
    maxWorkers: 2,
    // Test files share their worker's modules instead of importing the app afresh: importing it
    // was about 70% of an integration file's time (30 files: 234 s of CPU isolated, 79 s shared).
    // The app keeps no per-test state in a module: every service takes the context it is given.
    isolate: false,
    globalSetup: ['tests/helpers/template-db.ts'],
    // Files that mostly wait on the processes and servers they start go first (tests/helpers/sequencer.ts).
    sequence: { sequencer: WaitingFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: RENDER } },
      { extends: true, test: { name: 'render', include: RENDER } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'] } },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    // Limits that catch a hang, not a slow machine: on a busy 2-core machine a test that starts
    // processes and renders files took over 20 s of wall time for a few seconds of CPU.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, though most of
    // an integration test's time is spent waiting on the processes it starts (sqld, workers, SMTP).
    maxWorkers: 2,
  },
});

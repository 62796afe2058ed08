import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, though most of
    // an integration test's time is spent waiting on the processes it starts (sqld, workers, SMTP).
    maxWorkers: 2,
  },
});

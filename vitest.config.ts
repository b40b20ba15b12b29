import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A printed reason when PostgreSQL tests are skipped (see test/helpers/dialects.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});

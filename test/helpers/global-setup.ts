import { existsSync } from 'node:fs';

/** Runs once per `npm test`: says plainly when the PostgreSQL half or the browser tests are skipped. */
export default function setup(): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium) && process.env.TOLK_E2E_REQUIRED !== '1') {
    console.warn(`\n[tolk] ${chromium} is missing: the browser (end-to-end) tests are SKIPPED. ` +
      'Install Debian\'s chromium package (apt-get install chromium) to run them; .ci/run does, and requires them.\n');
  }
  if (!process.env.TEST_DATABASE_URL) {
    console.warn('\n[tolk] TEST_DATABASE_URL is not set: PostgreSQL tests are SKIPPED (SQLite tests run). ' +
      'Set it, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test, to run them; .ci/run does.\n');
  }
}

/** Runs once per `npm test`: says plainly when the PostgreSQL half of the suite is skipped. */
export default function setup(): void {
  if (!process.env.TEST_DATABASE_URL) {
    console.warn('\n[tolk] TEST_DATABASE_URL is not set: PostgreSQL tests are SKIPPED (SQLite tests run). ' +
      'Set it, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test, to run them; .ci/run does.\n');
  }
}

/** The stores every integration test runs on. */
import type { Dialect } from '../../src/store/open-store.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set (otherwise skipped, with a printed reason). */
export const DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

#!/usr/bin/env node
/**
 * Seeds a store with the bench's large project and leaves it there, for profiling one request at a
 * time (`node --cpu-prof bin/tolk.js serve` against it) without running the whole bench.
 *
 *   npm run build && node bench/seed-large.mjs sqlite:/tmp/large.db [--quick]
 *   npm run build && node bench/seed-large.mjs postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3Dlarge [--quick]
 *
 * Prints `{ "apiKey", "projectId", ... }` as JSON. The user's quota never stops a measurement.
 */
import { randomBytes } from 'node:crypto';
import { largeLayout, seedLargeProject } from './lib/large-project.mjs';
import { createBenchUser } from './lib/tolk-server.mjs';

const [url, ...flags] = process.argv.slice(2);
if (!url || flags.some((flag) => flag !== '--quick')) {
  process.stderr.write('usage: node bench/seed-large.mjs DATABASE_URL [--quick]\n');
  process.exit(2);
}
const kind = url.startsWith('postgres') ? 'postgres' : 'sqlite';
const user = await createBenchUser(url, `seed-${randomBytes(3).toString('hex')}@example.com`);
const large = await seedLargeProject({ kind, url, ownerId: user.id, layout: largeLayout(flags.includes('--quick')) });
process.stdout.write(`${JSON.stringify({ apiKey: user.apiKey, ...large, leafGroupIds: large.leafGroupIds.slice(0, 3) }, null, 2)}\n`);

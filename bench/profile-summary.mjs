#!/usr/bin/env node
/**
 * Where a tolk server's CPU went, from a V8 .cpuprofile (`npm run bench -- --cpu-prof`, or
 * `node --cpu-prof bin/tolk.js serve`): busy time by package (tolk's own code by layer, SQLite's
 * native work apart), then the functions with the most self time. Idle time is left out.
 *
 *   node bench/profile-summary.mjs bench/results/profiles/sqlite/CPU.*.cpuprofile [top-N]
 */
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs FILE.cpuprofile [top-N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const byPackage = new Map();
const byFunction = new Map();
let busy = 0;
for (const [id, micros] of selfTime) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') continue;
  busy += micros;
  const url = frame.url;
  let where = frame.functionName || '(native)';
  if (url.includes('node_modules/')) where = url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
  else if (url.includes('/dist/')) where = `tolk ${url.replace(/.*\/dist\//, '').split('/')[0]}`;
  else if (url.startsWith('node:')) where = 'node core';
  if (frame.functionName === 'executeQuery' && url.includes('sqlite-driver')) where = 'SQLite (native, inside executeQuery)';
  byPackage.set(where, (byPackage.get(where) ?? 0) + micros);
  const name = `${frame.functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}
const share = (micros) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
process.stdout.write(`busy ${(busy / 1000).toFixed(0)} ms\n\nby package\n`);
for (const [where, micros] of sorted(byPackage).slice(0, 15)) process.stdout.write(`  ${share(micros)}  ${where}\n`);
process.stdout.write('\nby function (self time)\n');
for (const [name, micros] of sorted(byFunction).slice(0, Number(top))) process.stdout.write(`  ${share(micros)}  ${name}\n`);

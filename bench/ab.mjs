/**
 * `node bench/ab.mjs <checkout A> <checkout B> [<checkout C> …] [--only read,page,write,spread,upsert,create] [--rounds N] [--together]`:
 * the same point read, page of 100, translation upsert (to one entry, spread over 100, and `upsert`: the bench's write-upsert, a random entry × language of its small project) and entry
 * create against two builds or more (each checkout's dist/, e.g. a `git worktree` of an older commit with
 * node_modules linked), interleaved A B, B A (four rounds unless told; with three, A B C, B C A, C A B,
 * so that a difference A to C is measured in the same rounds as A to B and B to C, and each build has
 * each place in a round alike; with `--together`, every build's server under the same scenario at the same
 * time, 5 connections each, so that the machine's swings fall on all alike), each server on its own fresh SQLite store (or
 * PostgreSQL database, with AB_POSTGRES_URL=postgres://user@host:port): a same-run comparison that the
 * machine's drift affects alike. Prints req/s per round as JSON, and the server's CPU time per request
 * in µs (user + system, from /proc): on a shared machine it holds far steadier than req/s, which swings
 * with what else runs (docs/design/history.md).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { apiClient } from './lib/api-client.mjs';
import { seedSmallProject } from './lib/small-project.mjs';
const args = process.argv.slice(2);
const option = (name) => { const at = args.indexOf(name); return at < 0 ? undefined : args.splice(at, 2)[1]; };
const only = option('--only')?.split(',');
const rounds = Number(option('--rounds') ?? 4);
const together = args.includes('--together') && Boolean(args.splice(args.indexOf('--together'), 1));
if (args.length < 2) throw new Error('usage: node bench/ab.mjs <checkout A> <checkout B> [<checkout C> …] [--only read,page,write,spread,upsert,create] [--rounds N] [--together]');
/** The builds by name: A, B, C, … in the order given. */
const builds = Object.fromEntries(args.map((root, at) => [String.fromCharCode(65 + at), root]));
const names = Object.keys(builds);
// utime + stime of a process, in clock ticks (100 a second on Linux)
const cpuTicks = (pid) => { const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(fields[11]) + Number(fields[12]); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A fresh store: a SQLite file, or with AB_POSTGRES_URL (a server URL without database) a new PostgreSQL database. */
async function freshStore(label) {
  const server = process.env.AB_POSTGRES_URL;
  if (!server) return `sqlite:${mkdtempSync(tmpdir() + '/ab-')}/t.db`;
  const name = `ab_${label.toLowerCase()}_${Date.now()}`;
  await onPostgres(server, `create database ${name}`);
  createdDatabases.push(name);
  return `${server}/${name}`;
}
/** Databases this run created, dropped at its end. */
const createdDatabases = [];
async function onPostgres(server, statement) {
  const client = new pg.Client(`${server}/postgres`);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
/** AB_NODE_ARGS: options for each server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (a profile per server, written as the run ends). */
const nodeArgs = process.env.AB_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
async function start(root, port, label) {
  const db = await freshStore(label);
  const key = JSON.parse(execFileSync('node', [`${root}/dist/cli/main.js`, 'users', 'create', '--email', 'a@b.co', '--first-name', 'A', '--last-name', 'B', '--daily-quota', '1000000000'], { env: { ...process.env, DATABASE_URL: db } })).apiKey;
  const child = spawn('node', [...nodeArgs, `${root}/dist/cli/main.js`, 'serve'], { env: { ...process.env, DATABASE_URL: db, PORT: String(port), LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}/api/v1`;
  for (let i = 0; i < 100; i++) { if (await fetch(`${base}/version`).then((r) => r.ok, () => false)) break; await sleep(100); }
  const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = async (path, body, method = 'POST') => (await fetch(base + path, { method, headers: h, body: JSON.stringify(body) })).json();
  const p = await post('/projects', { name: 'AB test', baseLanguage: 'en', translationLanguages: ['de', 'fr'] });
  const g = await post(`/projects/${p.id}/groups`, { technicalName: 'main', displayName: 'Main' });
  const e = await post(`/groups/${g.id}/entries`, { technicalName: 'title', baseTerm: 'Title' });
  await post(`/entries/${e.id}/translations`, { language: 'de', translation: 'Titel' }, 'PUT');
  // a page of 100 entries, as the bench's list-page reads (base term + 2 translations each)
  const paged = await post(`/projects/${p.id}/groups`, { technicalName: 'paged', displayName: 'Paged' });
  const pagedEntries = [];
  for (let i = 0; i < 100; i++) {
    const entry = await post(`/groups/${paged.id}/entries`, { technicalName: `term${i}`, baseTerm: `Label ${i} of the {name} screen` });
    pagedEntries.push(entry.id);
    for (const language of ['de', 'fr']) await post(`/entries/${entry.id}/translations`, { language, translation: `${language} Label ${i}` }, 'PUT');
  }
  // the bench's small project (2,000 entries in nested groups, 2 languages), for `upsert` only: it takes a while to seed
  const small = scenarios.includes('upsert') ? await seedSmallProject(apiClient(`http://127.0.0.1:${port}`, key)) : null;
  return { child, base, h, entry: e.id, pagedEntries, small, page: `/groups/${paged.id}/entries?limit=100`, inbox: (await post(`/projects/${p.id}/groups`, { technicalName: 'inbox', displayName: 'Inbox' })).id };
}
const scenarios = ['read', 'page', 'write', 'spread', 'upsert', 'create'].filter((name) => !only || only.includes(name));
const servers = {};
for (const [at, name] of names.entries()) servers[name] = await start(builds[name], 18101 + at, name);
const results = { ...Object.fromEntries(names.map((name) => [name, {}])), cpuMicrosPerRequest: Object.fromEntries(names.map((name) => [name, {}])) };
for (const name of names) for (const scenario of scenarios) { results[name][scenario] = []; results.cpuMicrosPerRequest[name][scenario] = []; }
let created = 0;
let saved = 0;
/** One scenario against one build's server: its req/s and the server's CPU µs a request. */
const run = (name, scenario, url, opts) => new Promise((res) => {
  const child = servers[name].child;
  const ticks = cpuTicks(child.pid);
  autocannon({ url, connections: together ? 5 : 10, duration: 6, ...opts }, (err, r) => {
    if (r.non2xx > 0) throw new Error(`${name} ${scenario}: ${r.non2xx} answers were not 2xx`);
    results[name][scenario].push(r.requests.average);
    results.cpuMicrosPerRequest[name][scenario].push(Math.round(((cpuTicks(child.pid) - ticks) * 10_000) / Math.max(1, r.requests.total)));
    res();
  });
});
/** The scenarios' runs against one build's server: [scenario, url, autocannon options]. */
function runsOf(name) {
  const s = servers[name];
  // a new text each time: the same text again is a write that changes nothing (rolled back), not a save
  const save = { method: 'PUT', setupRequest: (request) => ({ ...request, body: JSON.stringify({ language: 'fr', translation: `Titre ${(saved += 1)}` }) }) };
  // saves spread over the 100 entries of the page, as editors spread them: what is kept per entry is
  // a different page of its index each time (the saves above all go to one entry)
  const spread = { method: 'PUT', setupRequest: (request) => ({ ...request, path: `/api/v1/entries/${s.pagedEntries[(saved += 1) % 100]}/translations`, body: JSON.stringify({ language: 'fr', translation: `Titre ${saved}` }) }) };
  // the bench's write-upsert: a random entry × language of the small project
  const pick = (items) => items[Math.floor(Math.random() * items.length)];
  const upsert = { method: 'PUT', setupRequest: (request) => ({ ...request, path: `/api/v1/entries/${pick(s.small.entryIds)}/translations`, body: JSON.stringify({ language: pick(s.small.languages), translation: `Bench text ${(saved += 1)}` }) }) };
  // new entries with unique names in one group, as concurrent-create sends them
  const create = { method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ technicalName: `made${(created += 1)}`, baseTerm: `Made ${created}` }) }) };
  return [
    ['read', `${s.base}/entries/${s.entry}`, { headers: s.h }],
    ['page', `${s.base}${s.page}`, { headers: s.h }],
    ['write', `${s.base}/entries/${s.entry}/translations`, { headers: s.h, requests: [save] }],
    ['spread', `${s.base}/entries/${s.entry}/translations`, { headers: s.h, requests: [spread] }],
    ['upsert', `${s.base}/entries/${s.entry}/translations`, { headers: s.h, requests: [upsert] }],
    ['create', `${s.base}/groups/${s.inbox}/entries`, { headers: s.h, requests: [create] }],
  ].filter(([scenario]) => scenarios.includes(scenario));
}
for (let round = 0; round < rounds; round++) {
  if (together) {
    // every build under the same load at the same moments: the machine's swings fall on all alike
    for (const [at] of runsOf('A').entries()) await Promise.all(names.map((name) => run(name, ...runsOf(name)[at])));
    continue;
  }
  // Each round starts one build later (A B C, B C A, C A B, …): a build's place in the round (after which
  // other server's load, its WAL and its collections still settling) is the same for every build.
  for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) for (const args of runsOf(name)) await run(name, ...args);
}
console.log(JSON.stringify(results));
for (const s of Object.values(servers)) s.child.kill();
for (const name of createdDatabases) await onPostgres(process.env.AB_POSTGRES_URL, `drop database ${name} with (force)`);

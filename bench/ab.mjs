/**
 * `node bench/ab.mjs <checkout A> <checkout B> [--only read,page,write,spread,create] [--rounds N]`: the
 * same point read, page of 100, translation upsert (to one entry, and spread over 100) and entry create
 * against two builds (each checkout's dist/, e.g. a `git worktree` of an older commit with node_modules
 * linked), interleaved A B A B (four rounds unless told), each server on its own fresh SQLite store (or
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
const args = process.argv.slice(2);
const option = (name) => { const at = args.indexOf(name); return at < 0 ? undefined : args.splice(at, 2)[1]; };
const only = option('--only')?.split(',');
const rounds = Number(option('--rounds') ?? 4);
const [A, B] = args;
if (!A || !B) throw new Error('usage: node bench/ab.mjs <checkout A> <checkout B> [--only read,page,write,spread,create] [--rounds N]');
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
async function start(root, port, label) {
  const db = await freshStore(label);
  const key = JSON.parse(execFileSync('node', [`${root}/dist/cli/main.js`, 'users', 'create', '--email', 'a@b.co', '--first-name', 'A', '--last-name', 'B', '--daily-quota', '1000000000'], { env: { ...process.env, DATABASE_URL: db } })).apiKey;
  const child = spawn('node', [`${root}/dist/cli/main.js`, 'serve'], { env: { ...process.env, DATABASE_URL: db, PORT: String(port), LOG_LEVEL: 'warn' }, stdio: 'ignore' });
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
  return { child, base, h, entry: e.id, pagedEntries, page: `/groups/${paged.id}/entries?limit=100`, inbox: (await post(`/projects/${p.id}/groups`, { technicalName: 'inbox', displayName: 'Inbox' })).id };
}
const servers = { A: await start(A, 18101, 'A'), B: await start(B, 18102, 'B') };
const scenarios = ['read', 'page', 'write', 'spread', 'create'].filter((name) => !only || only.includes(name));
const results = { A: {}, B: {}, cpuMicrosPerRequest: { A: {}, B: {} } };
for (const name of ['A', 'B']) for (const scenario of scenarios) { results[name][scenario] = []; results.cpuMicrosPerRequest[name][scenario] = []; }
let created = 0;
let saved = 0;
for (let round = 0; round < rounds; round++) for (const name of ['A', 'B']) {
  const s = servers[name];
  const run = (scenario, url, opts) => new Promise((res) => {
    if (!scenarios.includes(scenario)) return res();
    const ticks = cpuTicks(s.child.pid);
    autocannon({ url, connections: 10, duration: 6, ...opts }, (err, r) => {
      if (r.non2xx > 0) throw new Error(`${name} ${scenario}: ${r.non2xx} answers were not 2xx`);
      results[name][scenario].push(r.requests.average);
      results.cpuMicrosPerRequest[name][scenario].push(Math.round(((cpuTicks(s.child.pid) - ticks) * 10_000) / Math.max(1, r.requests.total)));
      res();
    });
  });
  await run('read', `${s.base}/entries/${s.entry}`, { headers: s.h });
  await run('page', `${s.base}${s.page}`, { headers: s.h });
  // a new text each time: the same text again is a write that changes nothing (rolled back), not a save
  const save = { method: 'PUT', setupRequest: (request) => ({ ...request, body: JSON.stringify({ language: 'fr', translation: `Titre ${(saved += 1)}` }) }) };
  await run('write', `${s.base}/entries/${s.entry}/translations`, { headers: s.h, requests: [save] });
  // saves spread over the 100 entries of the page, as editors spread them: what is kept per entry is
  // a different page of its index each time (the saves above all go to one entry)
  const spread = { method: 'PUT', setupRequest: (request) => ({ ...request, path: `/api/v1/entries/${s.pagedEntries[(saved += 1) % 100]}/translations`, body: JSON.stringify({ language: 'fr', translation: `Titre ${saved}` }) }) };
  await run('spread', `${s.base}/entries/${s.entry}/translations`, { headers: s.h, requests: [spread] });
  // new entries with unique names in one group, as concurrent-create sends them
  const create = { method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ technicalName: `made${(created += 1)}`, baseTerm: `Made ${created}` }) }) };
  await run('create', `${s.base}/groups/${s.inbox}/entries`, { headers: s.h, requests: [create] });
}
console.log(JSON.stringify(results));
for (const s of Object.values(servers)) s.child.kill();
for (const name of createdDatabases) await onPostgres(process.env.AB_POSTGRES_URL, `drop database ${name} with (force)`);

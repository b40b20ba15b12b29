#!/usr/bin/env node
/**
 * What the change log costs an embedded-store save, by layout, without the server around it: the
 * save's own writes (the project's version bump and the translation's update) in commits of 6, as
 * the server's group commit holds them under 10 concurrent editors, with a PASSIVE checkpoint every 60
 * commits (the server's worker checkpoints every 100 ms, ~600 commits a second), on a copy of the
 * bench's quick large project (10,000 entries, real schema from the migrations). Each layout runs on its
 * own copy, the layouts interleaved round by round; prints µs per save (median of the rounds) and the
 * log's cost over `none`. The layouts (docs/design/history.md, "Sixth session"):
 *
 * - none: no log row (the commit before the log);
 * - today: the set's own row in `change_sets` with its indexes (what a save writes now);
 * - no-entry-index, no-entry-group-index, no-index: today's row with those indexes dropped;
 * - staging: one row a save in a table of its own with no index (rowid), nothing else;
 * - staging+fold: the same, moved into `change_sets` every FOLD_EVERY saves in one statement;
 * - mapping: today's row without its entry and group indexes, which a narrow table of (object,
 *   version) takes over, filled every FOLD_EVERY versions from the rows since;
 * - commit-row: one row per commit holding its 6 saves' changes as JSON (rowid, no index).
 *
 *   npm run build && node bench/log-layouts.mjs [--entries 100|10000] [--rounds 3] [--commits 4000]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeLayout, seedLargeProject } from './lib/large-project.mjs';
import { createBenchUser } from './lib/tolk-server.mjs';

const SQLite = createRequire(import.meta.url)('better-sqlite3');
const args = process.argv.slice(2);
const option = (name, fallback) => { const at = args.indexOf(name); return at < 0 ? fallback : Number(args[at + 1]); };
const ENTRIES = option('--entries', 100);
const ROUNDS = option('--rounds', 3);
const COMMITS = option('--commits', 4_000);
const SAVES_PER_COMMIT = 6;
const CHECKPOINT_EVERY_COMMITS = 60;
const FOLD_EVERY = option('--fold-every', 1_200);
const LAYOUTS = process.env.LAYOUTS ? process.env.LAYOUTS.split(',') : ['none', 'today', 'no-entry-index', 'no-entry-group-index', 'no-index', 'staging', 'staging+fold', 'mapping', 'commit-row'];

const dir = mkdtempSync(join(tmpdir(), 'log-layouts-'));
const seeded = join(dir, 'seeded.db');
const user = await createBenchUser(`sqlite:${seeded}`, 'layouts@example.com');
const { projectId } = await seedLargeProject({ kind: 'sqlite', url: `sqlite:${seeded}`, ownerId: user.id, layout: largeLayout(true) });
{
  const db = new SQLite(seeded);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const STAGING_COLUMNS = `id text, project_id text, version integer, source text, user_id text, api_key_id text, created_at text,
  created_count integer, updated_count integer, deleted_count integer, revert_of text,
  target text, op text, group_id text, entry_id text, language text, key text, before_json text, after_json text`;
const SET_COLUMNS = `id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of,
  target, op, group_id, entry_id, language, key, before_json, after_json`;

/** The DDL that turns a copy of the seeded store into the layout. */
function prepareLayout(db, layout) {
  if (['no-entry-index', 'no-entry-group-index', 'no-index', 'mapping'].includes(layout)) db.exec('drop index change_sets_entry');
  if (['no-entry-group-index', 'no-index', 'mapping'].includes(layout)) db.exec('drop index change_sets_group');
  if (layout === 'no-index') db.exec('drop index change_sets_id; drop index change_sets_revert_of');
  if (layout.startsWith('staging')) db.exec(`create table change_sets_staged (${STAGING_COLUMNS})`);
  if (layout === 'mapping') db.exec('create table change_objects (object_id text not null, version integer not null, project_id text not null, primary key (object_id, version)) without rowid');
  if (layout === 'commit-row') db.exec('create table change_commits (project_id text, first_version integer, sets text)');
}

function runLayout(layout) {
  const file = join(dir, `${layout}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  copyFileSync(seeded, file);
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -16384');
  db.pragma('wal_autocheckpoint = 0');
  prepareLayout(db, layout);
  const targets = db.prepare(`select t.entry_id, e.group_id from translations t join entries e on e.id = t.entry_id where t.language = 'fr' order by t.entry_id limit ?`).all(ENTRIES);
  const bump = db.prepare('update projects set content_version = content_version + 1, updated_at = ? where id = ? returning content_version').pluck();
  const save = db.prepare(`update translations set translation = ?, updated_at = ? where entry_id = ? and language = 'fr'`);
  const values = `(?, ?, ?, 'api', ?, ?, ?, 0, 1, 0, null, 'translation', 'update', ?, ?, 'fr', ?, ?, ?)`;
  const record = {
    today: `insert into change_sets (${SET_COLUMNS}) values ${values}`,
    staging: `insert into change_sets_staged (${SET_COLUMNS}) values ${values}`,
  };
  const insert = layout.startsWith('staging') ? db.prepare(record.staging) : ['none', 'commit-row'].includes(layout) ? null : db.prepare(record.today);
  const fold = layout === 'staging+fold'
    ? () => db.exec(`insert into change_sets (${SET_COLUMNS}) select ${SET_COLUMNS} from change_sets_staged order by project_id, version; delete from change_sets_staged`)
    : layout === 'mapping'
      ? (after) => db.prepare(`insert into change_objects select entry_id, version, project_id from change_sets where project_id = ? and version > ? and entry_id is not null
          union all select group_id, version, project_id from change_sets where project_id = ? and version > ? and group_id is not null order by 1, 2`).run(projectId, after, projectId, after)
      : null;
  const commitRow = layout === 'commit-row' ? db.prepare('insert into change_commits values (?, ?, ?)') : null;
  let saved = 0;
  let folded = db.prepare('select content_version from projects where id = ?').pluck().get(projectId);
  const started = process.hrtime.bigint();
  for (let commit = 0; commit < COMMITS; commit += 1) {
    db.exec('begin immediate');
    const sets = [];
    for (let i = 0; i < SAVES_PER_COMMIT; i += 1) {
      saved += 1;
      const target = targets[(saved * 7_919) % targets.length];
      const now = new Date().toISOString();
      const version = bump.get(now, projectId);
      save.run(`Texte ${saved}`, now, target.entry_id);
      const id = `${Date.now()}${String(saved).padStart(8, '0')}4711081500`;
      const row = [id, projectId, version, user.id, null, now, target.group_id, target.entry_id, `area0.screen0.part0.term${saved % 100}`, JSON.stringify({ text: `Texte ${saved - 1}` }), JSON.stringify({ text: `Texte ${saved}` })];
      if (insert) insert.run(...row);
      if (commitRow) sets.push(row);
      if (layout === 'staging+fold' && saved % FOLD_EVERY === 0) fold();
      if (layout === 'mapping' && version - folded >= FOLD_EVERY) { fold(folded); folded = version; }
    }
    if (commitRow) commitRow.run(projectId, sets[0][2], JSON.stringify(sets));
    db.exec('commit');
    if (commit % CHECKPOINT_EVERY_COMMITS === CHECKPOINT_EVERY_COMMITS - 1) db.pragma('wal_checkpoint(PASSIVE)');
  }
  const micros = Number(process.hrtime.bigint() - started) / 1_000 / saved;
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return micros;
}

const results = Object.fromEntries(LAYOUTS.map((layout) => [layout, []]));
for (let round = 0; round < ROUNDS; round += 1) for (const layout of LAYOUTS) results[layout].push(runLayout(layout));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const none = median(results.none);
console.log(`${ENTRIES} entries saved to in turn, ${COMMITS} commits of ${SAVES_PER_COMMIT} saves, median of ${ROUNDS} rounds`);
for (const layout of LAYOUTS) {
  const micros = median(results[layout]);
  console.log(`${layout.padEnd(22)} ${micros.toFixed(1).padStart(6)} µs a save   log ${(micros - none).toFixed(1).padStart(5)} µs   rounds ${results[layout].map((m) => m.toFixed(1)).join(' ')}`);
}
rmSync(dir, { recursive: true, force: true });

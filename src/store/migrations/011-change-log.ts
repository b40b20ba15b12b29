/**
 * The change log (CONTRACT "History"): one change set per content write, with its changes, written
 * in the write's own transaction (store/content-writes). A change set's `version` is the project's
 * content version after its write, so the sets of a project are one per version, in order; the
 * changes repeat it (and their project) so that a feed or one entry's history is one index range.
 * Changes are numbered by the store (an identity), not given cuids: an import records a million of
 * them. Every save writes a set and a change: each index is one more page in its commit (SQLite),
 * so there are few. A set's changes are found by its (project, version), not by an index of their own: every save
 * writes one change, and each index is more pages in its commit. Deleting a project removes its
 * history (cascades). Frozen.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // A set is its project's version: that is its key, so the one row a save adds to it lands beside the
  // project's last (SQLite: clustered, without a rowid), and only its id needs an index of its own.
  let changeSets = db.schema
    .createTable('change_sets')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_count', 'integer', (c) => c.notNull())
    .addColumn('updated_count', 'integer', (c) => c.notNull())
    .addColumn('deleted_count', 'integer', (c) => c.notNull())
    .addColumn('revert_of', 'text')
    .addPrimaryKeyConstraint('change_sets_version', ['project_id', 'version']);
  if (!postgres) changeSets = changeSets.modifyEnd(sql`without rowid`);
  await changeSets.execute();
  await db.schema.createIndex('change_sets_id').on('change_sets').column('id').unique().execute();
  await db.schema.createIndex('change_sets_revert_of').on('change_sets').column('revert_of').where(sql.ref('revert_of'), 'is not', null).execute();
  await db.schema
    .createTable('changes')
    // SQLite: the rowid, without AUTOINCREMENT's sequence row (one more page in every save's commit); a
    // number is reused only after the newest changes of all went with a deleted project.
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) => (postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey()))
    .addColumn('change_set_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text')
    .addColumn('entry_id', 'text')
    .addColumn('language', 'text')
    .addColumn('key', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .execute();
  await db.schema.createIndex('changes_project_version').on('changes').columns(['project_id', 'version']).execute();
  await db.schema.createIndex('changes_entry').on('changes').columns(['entry_id', 'version']).where(sql.ref('entry_id'), 'is not', null).execute();
  await db.schema.createIndex('changes_group').on('changes').columns(['group_id', 'version']).where(sql.ref('group_id'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('changes').execute();
  await db.schema.dropTable('change_sets').execute();
}

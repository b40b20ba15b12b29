/**
 * A set of one change holds that change in its own row (CONTRACT "History"): most writes (a save, a
 * create, a rename) record one change, and a second row in `changes` cost each of them one more
 * statement and two more B-trees in its commit (the log's table and its version index): about a tenth
 * of a save's rate on SQLite (docs/design/history.md, "Not yet"). Such a set's row carries the change's
 * columns, indexed by entry and by group as `changes` is; `changes` keeps the changes of larger sets.
 * Every reader takes both (store/repositories/history.ts, revert-reads.ts, exports.ts;
 * content-writes/log-retention.ts). Rows recorded before stay as they are: a set with its one change
 * in `changes` reads the same. Frozen.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['target', 'op', 'group_id', 'entry_id', 'language', 'key', 'before_json', 'after_json']) {
    await db.schema.alterTable('change_sets').addColumn(column, 'text').execute();
  }
  await db.schema.createIndex('change_sets_entry').on('change_sets').columns(['entry_id', 'version']).where(sql.ref('entry_id'), 'is not', null).execute();
  await db.schema.createIndex('change_sets_group').on('change_sets').columns(['group_id', 'version']).where(sql.ref('group_id'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('change_sets_group').execute();
  await db.schema.dropIndex('change_sets_entry').execute();
  for (const column of ['after_json', 'before_json', 'key', 'language', 'entry_id', 'group_id', 'op', 'target']) {
    await db.schema.alterTable('change_sets').dropColumn(column).execute();
  }
}

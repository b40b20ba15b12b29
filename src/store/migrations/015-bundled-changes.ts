/**
 * An import's translation changes, one row of `changes` per entry and op (CONTRACT "History"): an
 * import of 100,000 entries in 10 languages recorded a million rows, each with its set, project,
 * entry, group and key again, and each one more entry in three indexes; it cost the import a fifth
 * of its time on SQLite and a third on PostgreSQL (import-large, docs/design/history.md). Such a
 * row (a bundle) has target `translation`, no language, and `before_json`/`after_json` as objects by
 * language; `bundled` counts its changes (null on every other row). Readers take each of its
 * languages as a change of its own (store/content-writes/change-bundles.ts). Rows recorded before
 * stay as they are. Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('changes').addColumn('bundled', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('changes').dropColumn('bundled').execute();
}

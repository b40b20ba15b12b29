/**
 * An import's change set says what it imported, by target and from which format (CONTRACT "History":
 * the Activity's "Ann Lee imported 1,240 translations (i18next)"): one JSON column on the set, written
 * by the import alone, so a save's one row does not grow. Sets recorded before have none. Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change_sets').addColumn('import_summary', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change_sets').dropColumn('import_summary').execute();
}

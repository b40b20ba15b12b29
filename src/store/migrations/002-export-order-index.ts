/** Exports read a project's entries in (group, technical name) order, in keyset batches. Frozen. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('entries_project_group_name').on('entries').columns(['project_id', 'group_id', 'technical_name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('entries_project_group_name').execute();
}

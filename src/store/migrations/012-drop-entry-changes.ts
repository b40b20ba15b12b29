/**
 * The entry change log of migration 008 is gone: the kept exports and entry pages catch up from the
 * change log of migration 011, which every write keeps in its own transaction anyway. Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('entry_changes').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entry_changes')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_changes_pk', ['project_id', 'version'])
    .execute();
}

/**
 * The recent content versions that changed one entry's texts and nothing else (a translation set or
 * removed, a base term or context info edited), one row per version: an export that kept a project's
 * rows at an earlier version then re-reads only those entries (exports/kept-rows.ts) instead of the
 * whole project. Only the last versions are kept (store/repositories/projects.ts). Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entry_changes')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_changes_pk', ['project_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('entry_changes').execute();
}

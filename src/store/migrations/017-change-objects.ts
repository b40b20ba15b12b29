/**
 * A set holding its one change (migration 014) is no longer indexed by entry and by group: each save
 * put a row in both indexes, on a page of its own entry's range, and those pages were most of what the
 * log cost an embedded-store save (bench/log-layouts.mjs: ~60 of ~75 µs; docs/design/history.md,
 * "Sixth session"). `change_objects` takes their place: (object, version) for each such set's entry and
 * group, written in bulk, every MAP_EVERY versions, for the versions since the project's
 * `log_mapped_version` (content-writes/change-objects.ts); a reader by entry or group takes the mapped
 * sets and, in the same statement, those after that version, which the project's own key ranges over.
 * Sets recorded before are mapped here. Frozen.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let objects = db.schema
    .createTable('change_objects')
    // an entry's or a group's id: both are ids of one generator, never the same
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('change_objects_key', ['object_id', 'version']);
  if (!postgres) objects = objects.modifyEnd(sql`without rowid`);
  await objects.execute();
  await db.schema.alterTable('projects').addColumn('log_mapped_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`insert into change_objects (object_id, version, project_id)
    select entry_id, version, project_id from change_sets where target is not null and entry_id is not null
    union all select group_id, version, project_id from change_sets where target is not null and group_id is not null`.execute(db);
  await sql`update projects set log_mapped_version = content_version`.execute(db);
  await db.schema.dropIndex('change_sets_entry').execute();
  await db.schema.dropIndex('change_sets_group').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('change_sets_entry').on('change_sets').columns(['entry_id', 'version']).where(sql.ref('entry_id'), 'is not', null).execute();
  await db.schema.createIndex('change_sets_group').on('change_sets').columns(['group_id', 'version']).where(sql.ref('group_id'), 'is not', null).execute();
  await db.schema.alterTable('projects').dropColumn('log_mapped_version').execute();
  await db.schema.dropTable('change_objects').execute();
}

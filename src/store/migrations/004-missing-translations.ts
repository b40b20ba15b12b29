/**
 * The (entry, language) pairs that still need a translation, one row each, kept in step by every
 * write that changes them (store/repositories/missing-translations.ts). The untranslated list and
 * its total then read one index range instead of probing every entry of the project for a
 * translation: 220 ms → a few ms for 100,000 entries. Frozen.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('missing_translations')
    .addColumn('entry_id', 'text', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // the entry's created_at (never changes): the list's order, readable from the index alone
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('missing_translations_pk', ['entry_id', 'language'])
    .execute();
  await db.schema
    .createIndex('missing_translations_list')
    .on('missing_translations')
    .columns(['project_id', 'language', 'created_at', 'entry_id'])
    .execute();
  const languages =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`json_array_elements_text(p.translation_languages::json) as l(value)`
      : sql`json_each(p.translation_languages) as l`;
  await sql`
    insert into missing_translations (entry_id, language, project_id, created_at)
    select e.id, l.value, e.project_id, e.created_at
    from projects p cross join ${languages} join entries e on e.project_id = p.id
    where not exists (select 1 from translations t where t.entry_id = e.id and t.language = l.value)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('missing_translations').execute();
}

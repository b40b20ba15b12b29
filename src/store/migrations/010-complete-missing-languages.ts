/**
 * The (project, language) pairs whose missing-translation rows are complete. A language a project
 * gains later is listed at once and its rows are written afterwards, in bounded steps
 * (domain/projects/change-languages.ts): writing 1,000,000 of them in the PATCH took 24 s of a
 * stalled SQLite server and 150 s on PostgreSQL. Until its pair is here a language's untranslated
 * entries and progress are counted from entries and translations instead. Every language listed
 * when this migration runs has its rows (migration 004 and every write since). Frozen.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('complete_missing_languages')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('complete_missing_languages_pk', ['project_id', 'language'])
    .execute();
  const languages =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`json_array_elements_text(p.translation_languages::json) as l(value)`
      : sql`json_each(p.translation_languages) as l`;
  await sql`insert into complete_missing_languages (project_id, language) select p.id, l.value from projects p cross join ${languages}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('complete_missing_languages').execute();
}

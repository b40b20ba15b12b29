/**
 * The columns the bulk path writes, mirroring src/store/schema.ts (EntriesTable, TranslationsTable, …).
 * Before writing, the live tables are compared with these lists: a migration that adds a required
 * column or drops one of these stops the bench with a clear message instead of seeding wrong rows.
 */
export const TABLES = {
  projects: ['id', 'owner_id', 'name', 'base_language', 'translation_languages', 'content_version', 'created_at', 'updated_at'],
  groups: ['id', 'project_id', 'parent_id', 'technical_name', 'display_name', 'created_at'],
  entries: ['id', 'project_id', 'group_id', 'technical_name', 'base_term', 'base_term_key', 'context_info', 'created_at', 'updated_at'],
  // with the review a translation keeps (migration 016); base_revision left at its default 0, as every entry's
  translations: ['id', 'entry_id', 'language', 'translation', 'translator_id', 'created_at', 'updated_at', 'state', 'reviewed_text', 'reviewed_by', 'reviewed_at', 'reviewed_revision'],
  // one row per untranslated (entry, language): src/store/repositories/missing-translations.ts
  missing_translations: ['entry_id', 'language', 'project_id', 'created_at'],
};

/** Foreign-key order: parents first. */
export const TABLE_ORDER = ['projects', 'groups', 'entries', 'translations', 'missing_translations'];

/** Columns that are not text (PostgreSQL needs the array type for unnest). */
export const INTEGER_COLUMNS = new Set(['content_version', 'reviewed_revision']);

/** Throws unless `live` (the table's columns: `{ name, required }`) fits what the bulk path writes. */
export function checkColumns(table, live) {
  const written = new Set(TABLES[table]);
  const liveNames = new Set(live.map((column) => column.name));
  const missing = [...written].filter((name) => !liveNames.has(name));
  const unwritten = live.filter((column) => column.required && !written.has(column.name)).map((column) => column.name);
  if (missing.length === 0 && unwritten.length === 0) return;
  throw new Error(
    `the schema of "${table}" changed (no column: ${missing.join(', ') || '—'}; required but not written: ${unwritten.join(', ') || '—'}); ` +
      'update bench/lib/bulk-tables.mjs and bench/lib/large-project.mjs to mirror src/store/schema.ts',
  );
}

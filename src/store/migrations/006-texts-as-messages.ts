/**
 * Every stored base term and translation becomes an ICU message (CONTRACT, "Messages"): a text from
 * before the rule that does not parse is replaced by its quoted literal (`{ lone` → `'{ lone'`), which
 * renders exactly as the text did. Projects whose texts changed get a new content version, so clients
 * holding an export's ETag fetch the new bytes. Reads only rows with `{`, `}` or `'` (no other text can
 * fail to parse), in keyset batches. Uses the live parser on purpose: "parses" means parses today.
 */
import { sql, type Kysely } from 'kysely';
import { parseMessage } from '../../messages/parse-message.js';
import { literalMessage } from '../../messages/print-icu.js';

const BATCH = 1000;
const MAY_NOT_PARSE = (column: string) => sql<boolean>`(${sql.ref(column)} like '%{%' or ${sql.ref(column)} like '%}%' or ${sql.ref(column)} like '%''%')`;

interface TextRow {
  id: string;
  text: string;
  project_id: string;
}

/** Rewrites each row of `table` whose `column` does not parse; returns the projects touched. */
async function quoteUnparsable(db: Kysely<any>, table: 'entries' | 'translations', column: 'base_term' | 'translation'): Promise<Set<string>> {
  const touched = new Set<string>();
  let after = '';
  for (;;) {
    const rows: TextRow[] =
      table === 'entries'
        ? await db.selectFrom('entries').select(['id', 'base_term as text', 'project_id']).where('id', '>', after).where(MAY_NOT_PARSE('base_term')).orderBy('id').limit(BATCH).execute()
        : await db.selectFrom('translations as t').innerJoin('entries as e', 'e.id', 't.entry_id').select(['t.id as id', 't.translation as text', 'e.project_id as project_id']).where('t.id', '>', after).where(MAY_NOT_PARSE('t.translation')).orderBy('t.id').limit(BATCH).execute();
    for (const row of rows) {
      if (parseMessage(row.text).ok) continue;
      const message = literalMessage(row.text);
      const changes = column === 'base_term' ? { base_term: message, base_term_key: message.toLowerCase() } : { translation: message };
      await db.updateTable(table).set(changes).where('id', '=', row.id).execute();
      touched.add(row.project_id);
    }
    if (rows.length < BATCH) return touched;
    after = rows.at(-1)!.id;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const touched = new Set([...(await quoteUnparsable(db, 'entries', 'base_term')), ...(await quoteUnparsable(db, 'translations', 'translation'))]);
  for (const projectId of touched) {
    await db.updateTable('projects').set({ content_version: sql`content_version + 1` }).where('id', '=', projectId).execute();
  }
}

/** The quoted texts render as before, so there is nothing to undo. */
export async function down(): Promise<void> {}

/**
 * Review states (CONTRACT "Review"). A translation keeps its state (`translated` or `reviewed`) and the
 * text its last review approved, with who and when (kept through later saves: that text ships under
 * `release=reviewed` until the new one is reviewed). Outdated is derived, never fanned out: an entry
 * counts the edits of its base term (`base_revision`, bumped by a non-minor base term edit in the
 * entry's own update), and each translation keeps the count it was written, confirmed or reviewed
 * against (`base_revision`) and the one its review was made against (`reviewed_revision`). So a base
 * term edit stays one statement however many translations the entry has. Every existing translation
 * is `translated` and not outdated (all counts 0). Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('base_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('translations').addColumn('state', 'text', (c) => c.notNull().defaultTo('translated')).execute();
  await db.schema.alterTable('translations').addColumn('base_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  for (const column of ['reviewed_text', 'reviewed_by', 'reviewed_at']) {
    await db.schema.alterTable('translations').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('translations').addColumn('reviewed_revision', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['reviewed_revision', 'reviewed_at', 'reviewed_by', 'reviewed_text', 'base_revision', 'state']) {
    await db.schema.alterTable('translations').dropColumn(column).execute();
  }
  await db.schema.alterTable('entries').dropColumn('base_revision').execute();
}

/**
 * What an import of a real app's files needs: the project's key style (`camelCase`, the spec's rule,
 * or `free`, the app's own keys) and, per entry, the ARB `@key` metadata of the base file (placeholder
 * types, formats, examples…), kept as JSON so the Flutter export writes it again. Frozen.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('key_style', 'text', (c) => c.notNull().defaultTo('camelCase')).execute();
  await db.schema.alterTable('entries').addColumn('arb_metadata', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('arb_metadata').execute();
  await db.schema.alterTable('projects').dropColumn('key_style').execute();
}

/** The rows whose values the integrity rules judge in code (locale tags, names, derived keys), and row counts. */
import type { Db, EntryRow, GroupRow, InvitationRow, MemberRow, ProjectRow, UserRow } from '../schema.js';

/** Entries are read this many at a time: a project may hold far more text than fits comfortably in memory. */
const ENTRY_BATCH = 2_000;

export type RowCounts = Record<'users' | 'apiKeys' | 'projects' | 'members' | 'groups' | 'entries' | 'translations', number>;

/** How many rows each table holds (what the checks looked at). */
export async function countRows(db: Db): Promise<RowCounts> {
  const count = async (table: 'users' | 'api_keys' | 'projects' | 'project_members' | 'groups' | 'entries' | 'translations') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    users: await count('users'),
    apiKeys: await count('api_keys'),
    projects: await count('projects'),
    members: await count('project_members'),
    groups: await count('groups'),
    entries: await count('entries'),
    translations: await count('translations'),
  };
}

export type GroupLink = Pick<GroupRow, 'id' | 'parent_id' | 'technical_name' | 'project_id'>;

/** Every group's parent link and name (the tree is small next to its entries). */
export async function listGroupLinks(db: Db): Promise<GroupLink[]> {
  return db.selectFrom('groups').select(['id', 'parent_id', 'technical_name', 'project_id']).orderBy('id').execute();
}

export type EntryText = Pick<EntryRow, 'id' | 'project_id' | 'technical_name' | 'base_term' | 'base_term_key'>;

/** Every entry's name and base term, in batches ordered by id. */
export async function* entryTextBatches(db: Db): AsyncGenerator<EntryText[]> {
  let after = '';
  for (;;) {
    const batch = await db
      .selectFrom('entries')
      .select(['id', 'project_id', 'technical_name', 'base_term', 'base_term_key'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(ENTRY_BATCH)
      .execute();
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1]!.id;
  }
}

/** Every translation's text, in batches by id (no text can fail to parse without `{`, `}` or `'`, so only those). */
export async function* translationTextBatches(db: Db): AsyncGenerator<Array<{ id: string; entry_id: string; language: string; translation: string }>> {
  let after = '';
  for (;;) {
    const batch = await db
      .selectFrom('translations')
      .select(['id', 'entry_id', 'language', 'translation'])
      .where('id', '>', after)
      .where((eb) => eb.or([eb('translation', 'like', '%{%'), eb('translation', 'like', '%}%'), eb('translation', 'like', "%'%")]))
      .orderBy('id')
      .limit(ENTRY_BATCH)
      .execute();
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1]!.id;
  }
}

/** Each language that translations are stored in, once. */
export async function listTranslationLanguages(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('translations').select('language').distinct().orderBy('language').execute();
  return rows.map((row) => row.language);
}

/** Every project's base language and stored list of translation languages. */
export async function listProjectLanguages(db: Db): Promise<Array<Pick<ProjectRow, 'id' | 'base_language' | 'translation_languages' | 'key_style'>>> {
  return db.selectFrom('projects').select(['id', 'base_language', 'translation_languages', 'key_style']).orderBy('id').execute();
}

/** Members whose role is none of `roles`. */
export async function listMembersWithRoleOutside(db: Db, roles: readonly string[]): Promise<Array<Pick<MemberRow, 'project_id' | 'user_id' | 'role'>>> {
  return db.selectFrom('project_members').select(['project_id', 'user_id', 'role']).where('role', 'not in', roles).orderBy('project_id').execute();
}

/** Every user's e-mail, its lookup key, profile locale, and who made the account. */
export async function listUserKeys(db: Db): Promise<Array<Pick<UserRow, 'id' | 'email' | 'email_key' | 'locale' | 'created_by'>>> {
  return db.selectFrom('users').select(['id', 'email', 'email_key', 'locale', 'created_by']).orderBy('id').execute();
}

/** Every pending invitation's address, lookup key and role. */
export async function listInvitationKeys(db: Db): Promise<Array<Pick<InvitationRow, 'id' | 'project_id' | 'email' | 'email_key' | 'role'>>> {
  return db.selectFrom('invitations').select(['id', 'project_id', 'email', 'email_key', 'role']).orderBy('id').execute();
}

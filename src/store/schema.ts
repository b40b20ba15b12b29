/**
 * Kysely table types, shared by both dialects. Timestamps are ISO 8601 UTC text in both stores
 * (sortable, identical on SQLite and PostgreSQL); flags are nullable timestamps, never booleans.
 */
import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  /** lower-cased e-mail: the unique key, so Ann@x.io and ann@x.io are one user */
  email_key: string;
  first_name: string;
  last_name: string;
  locale: string;
  timezone: string;
  daily_quota: number;
  member_limit: number;
  password_hash: string | null;
  created_at: string;
  /** 'admin': made by `tolk users create` (an administrator vouches for the address); 'sign-up': self-made */
  created_by: Generated<string>;
  /** when the owner of the address followed a verification link; null: not proved */
  email_verified_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** the first characters of the secret, safe to show */
  prefix: string;
  /** sha256 of the whole secret, hex; the secret itself is never stored */
  secret_hash: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ProjectsTable {
  id: string;
  owner_id: string;
  name: string;
  base_language: string;
  /** JSON array of locale tags */
  translation_languages: string;
  /** bumped by every write that changes exported content (strong ETag source) */
  content_version: number;
  /** `camelCase` (the spec's naming rule) or `free` (a real app's own keys) */
  key_style: string;
  created_at: string;
  updated_at: string;
  /** the version up to which the change sets holding one change are in `change_objects` (migration 017) */
  log_mapped_version: Generated<number>;
}

/** A pending invitation, addressed by e-mail whether or not the address has an account (migration 009). */
export interface InvitationsTable {
  /** the invitation's handle: the Member answer's userId while it is pending */
  id: string;
  project_id: string;
  /** as the inviter wrote it */
  email: string;
  /** lower-cased e-mail, as users.email_key */
  email_key: string;
  role: string;
  /** sha256 of the one-time token, hex; null for invitations made before tokens existed */
  token_hash: string | null;
  created_at: string;
}

/** A link sent to prove an address (migration 009). */
export interface EmailVerificationsTable {
  /** sha256 of the link's token, hex */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: string;
  /**
   * when the member accepted; its order decides who is over the member limit. Never null since
   * migration 009 (pending invitations are in `invitations`), kept nullable as the column is.
   */
  confirmed_at: string | null;
  created_at: string;
}

export interface GroupsTable {
  id: string;
  project_id: string;
  parent_id: string | null;
  technical_name: string;
  display_name: string;
  created_at: string;
}

export interface EntriesTable {
  id: string;
  project_id: string;
  group_id: string;
  technical_name: string;
  base_term: string;
  /** base_term lower-cased in JS: case-insensitive search that works beyond ASCII on both stores */
  base_term_key: string;
  context_info: string | null;
  /** the ARB `@key` object of the base file without its description (JSON), kept for the Flutter export */
  arb_metadata: string | null;
  created_at: string;
  updated_at: string;
  /** how many times its base term changed other than by a minor edit (migration 016): translations written against fewer are outdated */
  base_revision: Generated<number>;
}

export interface TranslationsTable {
  id: string;
  entry_id: string;
  language: string;
  translation: string;
  translator_id: string;
  created_at: string;
  updated_at: string;
  /** `translated` or `reviewed` (migration 016, CONTRACT "Review") */
  state: Generated<string>;
  /** the entry's base_revision this translation was written, confirmed or reviewed against: outdated when the entry's is higher */
  base_revision: Generated<number>;
  /** the text its last review approved (kept through later saves until the next review or an unreview); null: none */
  reviewed_text: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  /** the entry's base_revision that review was made against (`outdated=fallback` exports) */
  reviewed_revision: number | null;
}

/** One row per (entry, translation language of its project) without a translation. */
/** A (project, language) whose missing-translation rows are complete (migration 010); others are counted instead. */
export interface CompleteMissingLanguagesTable {
  project_id: string;
  language: string;
}

export interface MissingTranslationsTable {
  entry_id: string;
  language: string;
  project_id: string;
  /** the entry's created_at */
  created_at: string;
}

export interface DailyUsageTable {
  user_id: string;
  /** the UTC day, YYYY-MM-DD */
  day: string;
  count: number;
}

/** A signed-in browser (the web application's cookie). */
export interface SessionsTable {
  /** sha256 of the cookie's secret, hex */
  id_hash: string;
  user_id: string;
  csrf_secret: string;
  created_at: string;
  /** refreshed at most once an hour; the idle expiry counts from it */
  last_seen_at: string;
  expires_at: string;
}

/** Failed sign-ins counted per e-mail and per client address within a window. */
export interface SignInFailuresTable {
  scope: string;
  failures: number;
  window_started_at: string;
}

/** A change's own columns: a row of `changes`, or the one change a set holds in its own row (migration 014). */
export interface ChangeColumns {
  /** `project`, `group`, `entry` or `translation` */
  target: string;
  /** `create`, `update` or `delete` */
  op: string;
  group_id: string | null;
  entry_id: string | null;
  language: string | null;
  key: string | null;
  /** the object's fields before (JSON; null for a create), a delete's with what it removed along */
  before_json: string | null;
  /** the object's fields after (JSON; null for a delete) */
  after_json: string | null;
}

/**
 * One content write's record (migration 011, CONTRACT "History"). A set of one change holds it in its
 * change columns (migration 014), and `changes` has no row of it; they are all null for a set whose
 * changes are rows of `changes`.
 */
export interface ChangeSetsTable extends OrNull<ChangeColumns> {
  id: string;
  project_id: string;
  /** the project's content version after the write: one set per version */
  version: number;
  /** `api`, `web`, `import` or `revert` */
  source: string;
  user_id: string;
  api_key_id: string | null;
  created_at: string;
  created_count: number;
  updated_count: number;
  deleted_count: number;
  /** the set this one reverts */
  revert_of: string | null;
  /** an import's: JSON {format, translations, entries, groups} (migration 013); null for any other set, and for imports before it */
  import_summary: string | null;
}

type OrNull<T> = { [K in keyof T]: T[K] | null };

/** One object's change within a change set of several (migration 011). */
export interface ChangesTable extends ChangeColumns {
  /** numbered by the store; answered as a decimal string */
  id: Generated<string | number>;
  change_set_id: string;
  project_id: string;
  version: number;
  /** a bundle's count of changes: an import's translation changes of one entry and op in one row (migration 015); null on any other row */
  bundled: number | null;
}

/**
 * Where a set holding its one change (migration 014) is found by its entry and by its group: a row
 * for each, written in bulk for the versions up to the project's log_mapped_version (migration 017).
 */
export interface ChangeObjectsTable {
  /** the entry's or the group's id */
  object_id: string;
  version: number;
  project_id: string;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  groups: GroupsTable;
  entries: EntriesTable;
  translations: TranslationsTable;
  daily_usage: DailyUsageTable;
  missing_translations: MissingTranslationsTable;
  complete_missing_languages: CompleteMissingLanguagesTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  invitations: InvitationsTable;
  email_verifications: EmailVerificationsTable;
  change_sets: ChangeSetsTable;
  changes: ChangesTable;
  change_objects: ChangeObjectsTable;
}

/** A connection or a transaction: every repository function takes one of these first. */
export type Db = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type MemberRow = Selectable<ProjectMembersTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type GroupRow = Selectable<GroupsTable>;
export type EntryRow = Selectable<EntriesTable>;
export type TranslationRow = Selectable<TranslationsTable>;
export type NewTranslation = Insertable<TranslationsTable>;

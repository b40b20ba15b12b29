/**
 * The API's shapes as the web app uses them: each is the static type of the route's own TypeBox schema
 * (src/http/schemas/), imported as a type only, so a change of the API is a type error here rather
 * than a silent drift. Nothing of the server reaches the browser bundle. The web app's own shapes (UI
 * state the API never sends) are not here: they live beside the code that uses them.
 */
import type { Static } from 'typebox';
import type {
  ApiKey as ApiKeySchema,
  CreatedApiKey as CreatedApiKeySchema,
  Invitation as InvitationSchema,
  SessionState as SessionStateSchema,
  SignedIn as SignedInSchema,
  Usage as UsageSchema,
} from '../../src/http/schemas/accounts.js';
import type { MessageCheck as MessageCheckSchema } from '../../src/http/schemas/checks.js';
import type { ErrorBody as ErrorBodySchema, Page as PageSchema } from '../../src/http/schemas/common.js';
import type {
  Entry as EntrySchema,
  EntryListItem as EntryListItemSchema,
  EntrySummary as EntrySummarySchema,
  Translation as TranslationSchema,
  UntranslatedEntry as UntranslatedEntrySchema,
} from '../../src/http/schemas/entries.js';
import type { Group as GroupSchema, GroupSummary as GroupSummarySchema } from '../../src/http/schemas/groups.js';
import type {
  Change as ChangeSchema,
  ChangeListQuery as ChangeListQuerySchema,
  ChangeSet as ChangeSetSchema,
  ChangeSetListQuery as ChangeSetListQuerySchema,
} from '../../src/http/schemas/history.js';
import type { ImportQuery as ImportQuerySchema, ImportReport as ImportReportSchema } from '../../src/http/schemas/imports.js';
import type { InvitedMember as InvitedMemberSchema, Member as MemberSchema, Role as RoleSchema } from '../../src/http/schemas/members.js';
import type { Info as InfoSchema, Locale as LocaleSchema } from '../../src/http/schemas/metadata.js';
import type { Project as ProjectSchema, ProjectListItem as ProjectListItemSchema, ProjectProgress as ProjectProgressSchema } from '../../src/http/schemas/projects.js';
import type { RevertAnswer as RevertAnswerSchema, RevertQuery as RevertQuerySchema } from '../../src/http/schemas/revert.js';

/** Every error answer's body. */
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** The spec's Page: its counts as the schema has them, its items those of the route (Page(…) is generic). */
export type Page<T> = Omit<Static<ReturnType<typeof PageSchema>>, 'result'> & { result: T[] };

/** GET and PATCH /info: the signed-in user's profile. */
export type Profile = Static<typeof InfoSchema>;

/** GET /usage: the day's request budget (key and session requests alike). */
export type Usage = Static<typeof UsageSchema>;

export type SessionState = Static<typeof SessionStateSchema>;

/** POST /auth/sign-in and /auth/sign-up. */
export type SignedIn = Static<typeof SignedInSchema>;

/** A project as GET, POST and PATCH /projects/{id} answer it (capabilities and memberQuota set on GET). */
export type Project = Static<typeof ProjectSchema>;

/** An item of GET /projects: no capabilities, no memberQuota. */
export type ProjectListItem = Static<typeof ProjectListItemSchema>;

/** What the caller may do on a project (GET /projects/{id}). */
export type Capabilities = NonNullable<Project['capabilities']>;

export type Role = Static<typeof RoleSchema>;

/** GET /projects/{id}/progress. */
export type ProjectProgress = Static<typeof ProjectProgressSchema>;

export type LanguageProgress = ProjectProgress['languages'][number];

/** A member or a pending invitation of GET /projects/{id}/members. */
export type Member = Static<typeof MemberSchema>;

/** The answer to an invitation: the member (pending) and its one-time link, shown this once. */
export type InvitedMember = Static<typeof InvitedMemberSchema>;

/** GET /invitations: the caller's pending invitations. */
export type Invitation = Static<typeof InvitationSchema>;

export type Group = Static<typeof GroupSchema>;

export type GroupSummary = Static<typeof GroupSummarySchema>;

export type EntrySummary = Static<typeof EntrySummarySchema>;

export type Translation = Static<typeof TranslationSchema>;

/** GET /entries/{id}: an entry with all its translations. */
export type Entry = Static<typeof EntrySchema>;

/** An item of GET /groups/{id}/entries: translations only with withTranslations=true. */
export type EntryListItem = Static<typeof EntryListItemSchema>;

export type UntranslatedEntry = Static<typeof UntranslatedEntrySchema>;

export type Locale = Static<typeof LocaleSchema>;

export type ApiKey = Static<typeof ApiKeySchema>;

/** POST /keys: the key with its secret, shown once, never again. */
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;

/** One problem of GET /projects/{id}/checks. */
export type MessageCheck = Static<typeof MessageCheckSchema>;

/** POST /projects/{id}/import's query (format, mode, dryRun, …). */
export type ImportQuery = Static<typeof ImportQuerySchema>;

/** POST /projects/{id}/import's report (a dry run's or an import's), with every file read (`files`). */
export type ImportReport = Static<typeof ImportReportSchema>;

/** A change set of GET /projects/{id}/change-sets: one write, who made it, how, its counts, its reverts. */
export type ChangeSet = Static<typeof ChangeSetSchema>;

/** One object's change of GET /projects/{id}/changes, with its `before` and `after`. */
export type Change = Static<typeof ChangeSchema>;

/** A change's `before` or `after` (null for a create's before and a delete's after). */
export type ChangedFields = Change['before'];

/** GET /projects/{id}/change-sets's filters and page. */
export type ChangeSetQuery = Static<typeof ChangeSetListQuerySchema>;

/** GET /projects/{id}/changes's filters and page. */
export type ChangeQuery = Static<typeof ChangeListQuerySchema>;

/** POST /change-sets/{id}/revert and /changes/{id}/revert: dryRun, onConflict. */
export type RevertQuery = Static<typeof RevertQuerySchema>;

/** A revert's answer (a dry run's or a real one's): restored, unchanged, conflicts, created. */
export type RevertAnswer = Static<typeof RevertAnswerSchema>;

export type RevertConflict = RevertAnswer['conflicts'][number];

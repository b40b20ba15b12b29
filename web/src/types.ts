/** The API's shapes as the web app uses them (see /api/v1/openapi.json for the full document). */
import type { Static } from 'typebox';
import type { ImportReport as ImportReportSchema } from '../../src/http/schemas/imports.js';

export interface Profile {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  timezone: string;
  /** whether the address was proved by the mailed link (accounts an administrator made need none) */
  emailVerified: boolean;
}

/** GET /usage: the day's request budget (key and session requests alike). */
export interface Usage {
  limit: number;
  used: number;
  remaining: number;
  resetsInSeconds: number;
}

export interface SessionState {
  user: Profile | null;
  csrfToken: string | null;
  signUpOpen: boolean;
}

export interface Page<T> {
  limit: number;
  offset: number;
  total: number;
  result: T[];
}

export interface Capabilities {
  isOwner: boolean;
  isOverLimit: boolean;
  canUpdateProject: boolean;
  canDeleteProject: boolean;
  canManageMembers: boolean;
  canAssignAdminRole: boolean;
  canTransferOwnership: boolean;
  canLeave: boolean;
  canReadEntries: boolean;
  canEditEntries: boolean;
  canTranslate: boolean;
  canReadGroups: boolean;
  canEditGroups: boolean;
  role: Role | null;
}

export type Role = 'admin' | 'editor' | 'translator' | 'viewer';

export interface Project {
  id: string;
  ownerId: string;
  owner: { id: string; firstName: string; lastName: string };
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  keyStyle: 'camelCase' | 'free';
  createdAt: string;
  capabilities: Capabilities | null;
  memberQuota: { limit: number; confirmedCount: number; overLimitCount: number } | null;
}

export interface LanguageProgress {
  language: string;
  translated: number;
  untranslated: number;
}

export interface ProjectProgress {
  entryCount: number;
  languages: LanguageProgress[];
}

export interface Member {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  confirmed: boolean;
  createdAt: string;
}

/** The answer to an invitation: the member (pending) and its one-time link, shown this once. */
export interface InvitedMember extends Member {
  invitationToken: string;
  invitationUrl: string;
}

export interface Invitation {
  projectId: string;
  projectName: string;
  role: Role;
  invitedAt: string;
}

export interface Group {
  id: string;
  projectId: string;
  parentId: string | null;
  technicalName: string;
  displayName: string;
  createdAt: string;
}

export interface GroupSummary {
  id: string;
  displayName: string;
  technicalName: string;
  breadcrumbs: string[];
  breadcrumbNames: string[];
}

export interface EntrySummary {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  createdAt: string;
}

export interface Translation {
  id: string;
  language: string;
  translation: string;
  translatorId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Entry extends EntrySummary {
  translations: Translation[];
}

export interface UntranslatedEntry {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
}

export interface Locale {
  code: string;
  name: string;
  regions: { code: string; name: string }[] | null;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export interface CreatedApiKey extends ApiKey {
  /** shown once, never again */
  secret: string;
}

/** One problem of GET /projects/{id}/checks. */
export interface MessageCheck {
  entryId: string;
  key: string;
  language: string;
  check: 'placeholders' | 'plural-forms' | 'not-native:flutter' | 'not-native:i18next' | 'not-native:vue-i18n';
  message: string;
}

/** POST /projects/{id}/import's report (a dry run's or an import's), with every file read (`files`): the route's own schema. */
export type ImportReport = Static<typeof ImportReportSchema>;

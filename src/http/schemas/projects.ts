/** Project schemas. */
import { Type } from 'typebox';
import { LocaleTag, Nullable, ProjectName, Timestamp } from './common.js';

const KeyStyle = Type.Union([Type.Literal('camelCase'), Type.Literal('free')], {
  description: "technical names: camelCase (the default: ^[a-z][a-zA-Z0-9]*$, entries 4–100 characters) or free (a real app's own keys: 1–100 ASCII letters, digits, _ and -, no i18next plural suffix)",
});

import { Role } from './members.js';

/** Spelled out (not generated from the capability table) so that the static type stays exact. */
const Capabilities = Type.Object({
  isOwner: Type.Boolean(),
  isOverLimit: Type.Boolean(),
  canUpdateProject: Type.Boolean(),
  canDeleteProject: Type.Boolean(),
  canManageMembers: Type.Boolean(),
  canAssignAdminRole: Type.Boolean(),
  canTransferOwnership: Type.Boolean(),
  canLeave: Type.Boolean(),
  canReadEntries: Type.Boolean(),
  canEditEntries: Type.Boolean(),
  canTranslate: Type.Boolean(),
  canReview: Type.Boolean({ description: 'review, unreview and bulk-review translations; import with markReviewed (CONTRACT "Review")' }),
  canReadGroups: Type.Boolean(),
  canEditGroups: Type.Boolean(),
  role: Nullable(Role),
});

const MemberQuota = Type.Object({
  limit: Type.Integer(),
  confirmedCount: Type.Integer(),
  overLimitCount: Type.Integer(),
});

const projectFields = {
  id: Type.String(),
  ownerId: Type.String(),
  owner: Type.Object({ id: Type.String(), firstName: Type.String(), lastName: Type.String() }),
  name: Type.String(),
  baseLanguage: Type.String(),
  translationLanguages: Type.Array(Type.String()),
  keyStyle: KeyStyle,
  createdAt: Timestamp,
};

/** A list item: no capabilities, no memberQuota (spec). */
export const ProjectListItem = Type.Object(projectFields);

/**
 * GET /projects/{id}/progress (the web app's): per translation language, how many entries are
 * translated and untranslated, and of the translated ones how many are reviewed and how many outdated.
 * The four parts of a bar split by state: reviewed, translated − reviewed − outdated (to review),
 * outdated, untranslated.
 */
export const ProjectProgress = Type.Object(
  {
    entryCount: Type.Integer(),
    languages: Type.Array(
      Type.Object({
        language: Type.String(),
        translated: Type.Integer({ description: 'entries with a translation in this language, whatever its state (translated + untranslated = entryCount)' }),
        untranslated: Type.Integer({ description: 'entries without a translation in this language' }),
        reviewed: Type.Integer({
          description: "translations `reviewed` and not outdated (approved against the current base term); translated − reviewed is the unreviewed list's total",
        }),
        outdated: Type.Integer({
          description: 'translations written, confirmed or reviewed against an earlier base term, `translated` or `reviewed`; not counted in reviewed, so reviewed + outdated ≤ translated',
        }),
      }),
      { description: "one item per translation language, in the project's order" },
    ),
  },
  { examples: [{ entryCount: 1200, languages: [{ language: 'de', translated: 1180, untranslated: 20, reviewed: 900, outdated: 35 }] }] },
);

/** Create (both null) and get (both set) responses. */
export const Project = Type.Object({
  ...projectFields,
  capabilities: Nullable(Capabilities),
  memberQuota: Nullable(MemberQuota),
});

export const CreateProjectBody = Type.Object(
  { name: ProjectName, baseLanguage: LocaleTag, translationLanguages: Type.Array(LocaleTag, { maxItems: 200 }), keyStyle: Type.Optional(KeyStyle) },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Nullable(ProjectName)),
    baseLanguage: Type.Optional(Nullable(LocaleTag)),
    translationLanguages: Type.Optional(Nullable(Type.Array(LocaleTag, { maxItems: 200 }))),
    keyStyle: Type.Optional(Nullable(KeyStyle)),
  },
  { additionalProperties: false },
);

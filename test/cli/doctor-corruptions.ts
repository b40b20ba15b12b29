/**
 * Ways to break a store behind the API's back, each with its repair and the problems `tolk doctor`
 * must name. Written as raw SQL through the test's own connection, as a bad migration, a manual
 * fix or a restore gone wrong would.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../src/store/schema.js';
import type { Dialect } from '../../src/store/open-store.js';

/** What the doctor test built through the API; ids of the rows the corruptions aim at. */
export interface DoctorWorld {
  projectId: string;
  ownerId: string;
  memberId: string;
  /** top-level group `auth` and its child `login` */
  authId: string;
  loginId: string;
  /** the deepest group of a chain exactly MAX_DEPTH deep */
  deepestId: string;
  /** entry `submit` in `login`, base term "Sign In" */
  submitId: string;
}

/** A problem the doctor must report: its check, and strings its message must contain. */
export type Expected = [check: string, ...mentions: string[]];

export interface Corruption {
  label: string;
  /** dialects where SQL can break this rule at all (SQLite cannot drop a table's unique constraint) */
  only?: Dialect;
  corrupt(db: Kysely<Database>, world: DoctorWorld): Promise<void>;
  repair(db: Kysely<Database>, world: DoctorWorld): Promise<void>;
  expected(world: DoctorWorld): Expected[];
}

const now = '2025-01-01T00:00:00.000Z';

/** Runs a built query for its effect only. */
const run = async (query: { execute(): Promise<unknown> }): Promise<void> => {
  await query.execute();
};

/** Runs `work` with foreign keys unenforced: off for the SQLite connection, replica role in a PostgreSQL transaction. */
async function withoutForeignKeys(db: Kysely<Database>, dialect: Dialect, work: (db: Kysely<Database>) => Promise<void>): Promise<void> {
  if (dialect === 'postgres') {
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await work(trx);
    });
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await work(db);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

const group = (id: string, projectId: string, parentId: string | null, technicalName: string) => ({
  id, project_id: projectId, parent_id: parentId, technical_name: technicalName, display_name: technicalName, created_at: now,
});

const missingRows = (entryId: string, projectId: string, languages: string[]) =>
  languages.map((language) => ({ entry_id: entryId, language, project_id: projectId, created_at: now }));

/** The missing-translation row of the entry in `language`, with the entry's own project and created_at. */
const missingOf = (db: Kysely<Database>, entryId: string, language: string) =>
  db
    .insertInto('missing_translations')
    .columns(['entry_id', 'language', 'project_id', 'created_at'])
    .expression((eb) => eb.selectFrom('entries').select(['id', eb.val(language).as('language'), 'project_id', 'created_at']).where('id', '=', entryId));

/** The missing-translation rows of every entry of the project without a translation in `language`. */
const missingInLanguage = (db: Kysely<Database>, projectId: string, language: string) =>
  db
    .insertInto('missing_translations')
    .columns(['entry_id', 'language', 'project_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('entries as e')
        .select(['e.id', eb.val(language).as('language'), 'e.project_id', 'e.created_at'])
        .where('e.project_id', '=', projectId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('translations as t').select('t.id').whereRef('t.entry_id', '=', 'e.id').where('t.language', '=', language))),
        ),
    );

/** The catalogue; `dialect` picks the way around foreign keys. */
export function corruptions(dialect: Dialect): Corruption[] {
  let deletedUser: UserRow | undefined;
  return [
    {
      label: 'a cycle of two groups',
      corrupt: (db, w) => run(db.updateTable('groups').set({ parent_id: w.loginId }).where('id', '=', w.authId)),
      repair: (db, w) => run(db.updateTable('groups').set({ parent_id: null }).where('id', '=', w.authId)),
      expected: (w) => [['group-cycle', w.authId, w.loginId]],
    },
    {
      label: 'an entry whose group is gone',
      corrupt: (db, w) => withoutForeignKeys(db, dialect, async (fk) => {
        await fk.insertInto('entries').values({
          id: 'orphanEntry', project_id: w.projectId, group_id: 'ghostGroup', technical_name: 'orphan', base_term: 'Orphan',
          base_term_key: 'orphan', context_info: null, created_at: now, updated_at: now,
        }).execute();
        // Its missing-translation rows are right, so that only the orphan is reported.
        await fk.insertInto('missing_translations').values(missingRows('orphanEntry', w.projectId, ['de', 'pt-BR'])).execute();
      }),
      repair: (db) => run(db.deleteFrom('entries').where('id', '=', 'orphanEntry')),
      expected: () => [['dangling-reference', 'entry orphanEntry', 'ghostGroup']],
    },
    {
      label: 'a group one level deeper than the limit',
      corrupt: (db, w) => run(db.insertInto('groups').values(group('tooDeep', w.projectId, w.deepestId, 'tooDeep'))),
      repair: (db) => run(db.deleteFrom('groups').where('id', '=', 'tooDeep')),
      expected: () => [['group-depth', 'group tooDeep', 'depth 11']],
    },
    {
      label: 'two top-level groups of one name, past a dropped unique index',
      corrupt: async (db, w) => {
        await sql`drop index groups_sibling_name`.execute(db);
        await db.insertInto('groups').values(group('authTwin', w.projectId, null, 'auth')).execute();
      },
      repair: async (db) => {
        await db.deleteFrom('groups').where('id', '=', 'authTwin').execute();
        await sql`create unique index groups_sibling_name on groups (project_id, (coalesce(parent_id, '')), technical_name)`.execute(db);
      },
      expected: (w) => [['duplicate-name', w.projectId, '2 groups named "auth"', 'top level']],
    },
    {
      label: 'a group named like an entry of its parent (no index can refuse it)',
      corrupt: (db, w) => run(db.insertInto('groups').values(group('submitGroup', w.projectId, w.loginId, 'submit'))),
      repair: (db) => run(db.deleteFrom('groups').where('id', '=', 'submitGroup')),
      expected: (w) => [['duplicate-name', 'group submitGroup', w.submitId]],
    },
    {
      label: 'two translations of one entry in one language, past a dropped constraint',
      only: 'postgres',
      corrupt: async (db, w) => {
        await sql`alter table translations drop constraint translations_entry_language`.execute(db);
        await db.insertInto('translations').values({
          id: 'twinTranslation', entry_id: w.submitId, language: 'de', translation: 'Los', translator_id: w.ownerId, created_at: now, updated_at: now,
        }).execute();
      },
      repair: async (db) => {
        await db.deleteFrom('translations').where('id', '=', 'twinTranslation').execute();
        await sql`alter table translations add constraint translations_entry_language unique (entry_id, language)`.execute(db);
      },
      expected: (w) => [['duplicate-translation', w.submitId, '2 translations in de']],
    },
    {
      label: 'a translation in a tag outside the locale catalog',
      corrupt: (db, w) => run(db.insertInto('translations').values({
        id: 'klingon', entry_id: w.submitId, language: 'tlh-XX', translation: 'Qapla', translator_id: w.ownerId, created_at: now, updated_at: now,
      })),
      repair: (db) => run(db.deleteFrom('translations').where('id', '=', 'klingon')),
      expected: () => [['unknown-locale', '"tlh-XX"']],
    },
    {
      label: 'a user deleted under its member row, API key and quota counter',
      corrupt: (db, w) => withoutForeignKeys(db, dialect, async (fk) => {
        deletedUser = await fk.selectFrom('users').selectAll().where('id', '=', w.memberId).executeTakeFirstOrThrow();
        await fk.deleteFrom('users').where('id', '=', w.memberId).execute();
      }),
      repair: (db) => run(db.insertInto('users').values(deletedUser!)),
      expected: (w) => [
        ['dangling-reference', `member ${w.memberId}`, w.projectId, 'the user is missing'],
        ['dangling-reference', 'API key', `its user ${w.memberId} is missing`],
        ['dangling-reference', 'daily usage', `its user ${w.memberId} is missing`],
      ],
    },
    {
      label: 'the owner listed among the members',
      corrupt: (db, w) => run(db.insertInto('project_members').values({ project_id: w.projectId, user_id: w.ownerId, role: 'admin', confirmed_at: now, created_at: now })),
      repair: (db, w) => run(db.deleteFrom('project_members').where('user_id', '=', w.ownerId)),
      expected: (w) => [['owner-is-member', w.projectId, w.ownerId]],
    },
    {
      label: 'a member role outside the contract\'s four',
      corrupt: (db, w) => run(db.updateTable('project_members').set({ role: 'superuser' }).where('user_id', '=', w.memberId)),
      repair: (db, w) => run(db.updateTable('project_members').set({ role: 'admin' }).where('user_id', '=', w.memberId)),
      expected: (w) => [['member-role', w.memberId, '"superuser"']],
    },
    {
      label: 'a member left pending (pending invitations belong in invitations since migration 009)',
      corrupt: (db, w) => run(db.updateTable('project_members').set({ confirmed_at: null }).where('user_id', '=', w.memberId)),
      repair: (db, w) => run(db.updateTable('project_members').set({ confirmed_at: now }).where('user_id', '=', w.memberId)),
      expected: (w) => [['invitation', `member ${w.memberId}`, w.projectId]],
    },
    {
      label: 'an invitation with an unknown role and a stale e-mail key',
      corrupt: (db, w) => run(db.insertInto('invitations').values({ id: 'brokeninvitation', project_id: w.projectId, email: 'Someone@example.com', email_key: 'Someone@example.com', role: 'superuser', token_hash: null, created_at: now })),
      repair: (db) => run(db.deleteFrom('invitations').where('id', '=', 'brokeninvitation')),
      expected: (w) => [
        ['member-role', 'invitation brokeninvitation', w.projectId, '"superuser"'],
        ['derived-key', 'invitation brokeninvitation'],
      ],
    },
    {
      label: 'an account made by neither an administrator nor sign-up',
      corrupt: (db, w) => run(db.updateTable('users').set({ created_by: 'robot' }).where('id', '=', w.ownerId)),
      repair: (db, w) => run(db.updateTable('users').set({ created_by: 'admin' }).where('id', '=', w.ownerId)),
      expected: (w) => [['account-origin', `user ${w.ownerId}`, '"robot"']],
    },
    {
      label: 'an entry whose search key is stale',
      corrupt: (db, w) => run(db.updateTable('entries').set({ base_term_key: 'stale' }).where('id', '=', w.submitId)),
      repair: (db, w) => run(db.updateTable('entries').set({ base_term_key: 'sign in' }).where('id', '=', w.submitId)),
      expected: (w) => [['derived-key', `entry ${w.submitId}`]],
    },
    {
      label: 'a base term and a translation that are not ICU messages (written before the rule)',
      corrupt: async (db, w) => {
        await run(db.updateTable('entries').set({ base_term: 'Sign {in', base_term_key: 'sign {in' }).where('id', '=', w.submitId));
        await run(db.updateTable('translations').set({ translation: 'Hallo {{name}}' }).where('entry_id', '=', w.submitId).where('language', '=', 'de'));
      },
      repair: async (db, w) => {
        await run(db.updateTable('entries').set({ base_term: 'Sign In', base_term_key: 'sign in' }).where('id', '=', w.submitId));
        await run(db.updateTable('translations').set({ translation: 'Anmelden' }).where('entry_id', '=', w.submitId).where('language', '=', 'de'));
      },
      expected: (w) => [
        ['message-syntax', `entry ${w.submitId}`, 'base term', "expected '}'"],
        ['message-syntax', `entry ${w.submitId}`, 'de translation', 'write {name}'],
      ],
    },
    {
      label: 'review states no write leaves: a state outside the two, a review of another text, a revision ahead of its entry',
      corrupt: async (db, w) => {
        await run(db.updateTable('translations').set({ state: 'approved' }).where('entry_id', '=', w.submitId).where('language', '=', 'de'));
        await run(
          db.updateTable('translations')
            .set({ state: 'reviewed', reviewed_text: 'Something else', reviewed_by: w.ownerId, reviewed_at: now, reviewed_revision: 0, base_revision: 5 })
            .where('entry_id', '=', w.submitId)
            .where('language', '=', 'fr'),
        );
      },
      repair: async (db, w) => {
        await run(db.updateTable('translations').set({ state: 'translated' }).where('entry_id', '=', w.submitId).where('language', '=', 'de'));
        await run(
          db.updateTable('translations')
            .set({ state: 'translated', reviewed_text: null, reviewed_by: null, reviewed_at: null, reviewed_revision: null, base_revision: 0 })
            .where('entry_id', '=', w.submitId)
            .where('language', '=', 'fr'),
        );
      },
      expected: (w) => [
        ['review-state', `entry ${w.submitId}`, 'de translation', 'state approved'],
        ['review-state', `entry ${w.submitId}`, 'fr translation', 'without a review of its text'],
      ],
    },
    {
      label: "a project mapped past a set its group's rows of change_objects lack, and a row past its mapped version",
      corrupt: async (db, w) => {
        const first = await db.selectFrom('change_sets').select((eb) => eb.fn.min('version').as('version')).where('project_id', '=', w.projectId).where('group_id', 'is not', null).where('target', 'is not', null).executeTakeFirstOrThrow();
        await run(db.updateTable('projects').set({ log_mapped_version: Number(first.version) }).where('id', '=', w.projectId));
        await run(db.insertInto('change_objects').values({ object_id: w.submitId, version: 1_000_000, project_id: w.projectId }));
      },
      repair: async (db, w) => {
        await run(db.updateTable('projects').set({ log_mapped_version: 0 }).where('id', '=', w.projectId));
        await run(db.deleteFrom('change_objects').where('project_id', '=', w.projectId));
      },
      expected: (w) => [
        ['change-log-mapping', `project ${w.projectId}`, 'is not mapped under its group'],
        ['change-log-mapping', `project ${w.projectId}`, 'version 1000000', `maps ${w.submitId} past`],
      ],
    },
    {
      label: 'a translation-language list holding the base language',
      corrupt: async (db, w) => {
        await run(db.updateTable('projects').set({ translation_languages: '["de","en"]' }).where('id', '=', w.projectId));
        await run(missingInLanguage(db, w.projectId, 'en'));
        await run(db.deleteFrom('missing_translations').where('project_id', '=', w.projectId).where('language', '=', 'pt-BR'));
      },
      repair: async (db, w) => {
        await run(db.updateTable('projects').set({ translation_languages: '["de","pt-BR"]' }).where('id', '=', w.projectId));
        await run(db.deleteFrom('missing_translations').where('project_id', '=', w.projectId).where('language', '=', 'en'));
        await run(missingInLanguage(db, w.projectId, 'pt-BR'));
      },
      expected: (w) => [['language-list', w.projectId, 'base language en']],
    },
    {
      label: 'an untranslated pair without its missing-translation row',
      corrupt: (db, w) => run(db.deleteFrom('missing_translations').where('entry_id', '=', w.submitId).where('language', '=', 'pt-BR')),
      repair: (db, w) => run(missingOf(db, w.submitId, 'pt-BR')),
      expected: (w) => [['missing-translations', `entry ${w.submitId}`, 'no pt-BR translation']],
    },
    {
      label: 'a missing-translation row for a language the project does not have',
      corrupt: (db, w) => run(missingOf(db, w.submitId, 'it')),
      repair: (db, w) => run(db.deleteFrom('missing_translations').where('entry_id', '=', w.submitId).where('language', '=', 'it')),
      expected: (w) => [['missing-translations', w.submitId, 'it', 'not one of the project']],
    },
  ];
}

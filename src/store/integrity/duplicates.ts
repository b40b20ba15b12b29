/**
 * Two rows where the contract allows one: one name space per parent (sibling groups, the entries
 * of a group, and a group named like an entry of its parent group), one translation per (entry,
 * language), one user per e-mail. Names compare exactly, as the unique indexes do: names that
 * differ only in case are distinct (the Flutter export reports its own key collisions).
 */
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

async function siblingGroups(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('groups')
    .select(['project_id', 'parent_id', 'technical_name', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['project_id', 'parent_id', 'technical_name'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.map((row) =>
    problem('duplicate-name', `project ${row.project_id}: ${row.n} groups named "${row.technical_name}" under ${row.parent_id ?? 'the top level'}`),
  );
}

async function entriesOfOneGroup(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('entries')
    .select(['group_id', 'technical_name', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['group_id', 'technical_name'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.map((row) => problem('duplicate-name', `group ${row.group_id}: ${row.n} entries named "${row.technical_name}"`));
}

async function groupsNamedLikeEntries(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('groups as g')
    .innerJoin('entries as e', (join) => join.onRef('e.group_id', '=', 'g.parent_id').onRef('e.technical_name', '=', 'g.technical_name'))
    .select(['g.id', 'g.parent_id', 'g.technical_name', 'e.id as entry_id'])
    .execute();
  return rows.map((row) =>
    problem('duplicate-name', `group ${row.id} is named "${row.technical_name}" like entry ${row.entry_id} of its parent ${row.parent_id}`),
  );
}

async function translationsOfOneLanguage(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('translations')
    .select(['entry_id', 'language', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['entry_id', 'language'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.map((row) => problem('duplicate-translation', `entry ${row.entry_id}: ${row.n} translations in ${row.language}`));
}

async function usersOfOneEmail(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('users')
    .select(['email_key', (eb) => eb.fn.countAll().as('n')])
    .groupBy('email_key')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.map((row) => problem('duplicate-email', `${row.n} users share the e-mail ${row.email_key}`));
}

/** Every name, translation or e-mail that is stored twice where it must be unique. */
export async function duplicateProblems(db: Db): Promise<IntegrityProblem[]> {
  return [
    ...(await siblingGroups(db)),
    ...(await entriesOfOneGroup(db)),
    ...(await groupsNamedLikeEntries(db)),
    ...(await translationsOfOneLanguage(db)),
    ...(await usersOfOneEmail(db)),
  ];
}

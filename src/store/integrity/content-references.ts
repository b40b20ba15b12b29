/**
 * Dangling links in the content tree (project → groups → entries → translations): a row whose
 * parent row is missing, or sits in another project. Foreign keys prevent most of these; this
 * finds what slipped past them (foreign keys off in a SQLite session, manual repairs, restores).
 */
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

async function groupsWithoutProject(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('groups as g')
    .leftJoin('projects as p', 'p.id', 'g.project_id')
    .select(['g.id', 'g.project_id'])
    .where('p.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `group ${row.id}: its project ${row.project_id} is missing`));
}

async function groupsWithBadParent(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('groups as g')
    .leftJoin('groups as parent', 'parent.id', 'g.parent_id')
    .select(['g.id', 'g.parent_id', 'g.project_id', 'parent.id as found_parent', 'parent.project_id as parent_project'])
    .where('g.parent_id', 'is not', null)
    .where((eb) => eb.or([eb('parent.id', 'is', null), eb('parent.project_id', '<>', eb.ref('g.project_id'))]))
    .execute();
  return rows.map((row) =>
    problem(
      'dangling-reference',
      row.found_parent === null
        ? `group ${row.id}: its parent ${row.parent_id} is missing`
        : `group ${row.id} (project ${row.project_id}): its parent ${row.parent_id} is in project ${row.parent_project}`,
    ),
  );
}

async function entriesWithBadGroup(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('entries as e')
    .leftJoin('groups as g', 'g.id', 'e.group_id')
    .leftJoin('projects as p', 'p.id', 'e.project_id')
    .select(['e.id', 'e.group_id', 'e.project_id', 'g.id as found_group', 'g.project_id as group_project', 'p.id as found_project'])
    .where((eb) => eb.or([eb('g.id', 'is', null), eb('p.id', 'is', null), eb('g.project_id', '<>', eb.ref('e.project_id'))]))
    .execute();
  return rows.flatMap((row) => [
    ...(row.found_group === null ? [`entry ${row.id}: its group ${row.group_id} is missing`] : []),
    ...(row.found_project === null ? [`entry ${row.id}: its project ${row.project_id} is missing`] : []),
    ...(row.found_group !== null && row.group_project !== row.project_id
      ? [`entry ${row.id}: its project ${row.project_id} differs from its group's ${row.group_project}`]
      : []),
  ].map((message) => problem('dangling-reference', message)));
}

async function translationsWithoutEntry(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('translations as t')
    .leftJoin('entries as e', 'e.id', 't.entry_id')
    .select(['t.id', 't.entry_id'])
    .where('e.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `translation ${row.id}: its entry ${row.entry_id} is missing`));
}

/** Groups, entries and translations that point at a missing row or across projects. */
export async function contentReferenceProblems(db: Db): Promise<IntegrityProblem[]> {
  return [
    ...(await groupsWithoutProject(db)),
    ...(await groupsWithBadParent(db)),
    ...(await entriesWithBadGroup(db)),
    ...(await translationsWithoutEntry(db)),
  ];
}

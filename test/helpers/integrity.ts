/**
 * The store's invariants, checked from outside with plain Kysely queries that run unchanged on
 * SQLite and PostgreSQL: no orphans, one name space per parent, depth within the limit, no cycles,
 * only catalog locale tags. `checkIntegrity` returns one line per violation; [] means clean.
 */
import type { Kysely } from 'kysely';
import { isKnownLocale } from '../../src/domain/locales/locale-catalog.js';
import type { Database } from '../../src/store/schema.js';

/** The contract's depth limit: a top-level group has depth 1. */
export const MAX_DEPTH = 10;

const GROUP_NAME = /^[a-z][a-zA-Z0-9]*$/;

/** Rows that point at a missing or inconsistent row. */
async function orphans(db: Kysely<Database>): Promise<string[]> {
  const found: string[] = [];
  const groupsWithoutProject = await db
    .selectFrom('groups as g')
    .leftJoin('projects as p', 'p.id', 'g.project_id')
    .select(['g.id', 'g.project_id'])
    .where('p.id', 'is', null)
    .execute();
  for (const row of groupsWithoutProject) found.push(`group ${row.id}: its project ${row.project_id} is missing`);

  const groupsWithBadParent = await db
    .selectFrom('groups as g')
    .leftJoin('groups as parent', 'parent.id', 'g.parent_id')
    .select(['g.id', 'g.parent_id', 'g.project_id', 'parent.id as found_parent', 'parent.project_id as parent_project'])
    .where('g.parent_id', 'is not', null)
    .where((eb) => eb.or([eb('parent.id', 'is', null), eb('parent.project_id', '<>', eb.ref('g.project_id'))]))
    .execute();
  for (const row of groupsWithBadParent) {
    found.push(
      row.found_parent === null
        ? `group ${row.id}: its parent ${row.parent_id} is missing`
        : `group ${row.id} (project ${row.project_id}): its parent ${row.parent_id} is in project ${row.parent_project}`,
    );
  }

  const entriesWithBadGroup = await db
    .selectFrom('entries as e')
    .leftJoin('groups as g', 'g.id', 'e.group_id')
    .leftJoin('projects as p', 'p.id', 'e.project_id')
    .select(['e.id', 'e.group_id', 'e.project_id', 'g.id as found_group', 'g.project_id as group_project', 'p.id as found_project'])
    .where((eb) => eb.or([eb('g.id', 'is', null), eb('p.id', 'is', null), eb('g.project_id', '<>', eb.ref('e.project_id'))]))
    .execute();
  for (const row of entriesWithBadGroup) {
    if (row.found_group === null) found.push(`entry ${row.id}: its group ${row.group_id} is missing`);
    if (row.found_project === null) found.push(`entry ${row.id}: its project ${row.project_id} is missing`);
    if (row.found_group !== null && row.group_project !== row.project_id) {
      found.push(`entry ${row.id}: project_id ${row.project_id} differs from its group's ${row.group_project}`);
    }
  }

  const translationsWithoutEntry = await db
    .selectFrom('translations as t')
    .leftJoin('entries as e', 'e.id', 't.entry_id')
    .select(['t.id', 't.entry_id'])
    .where('e.id', 'is', null)
    .execute();
  for (const row of translationsWithoutEntry) found.push(`translation ${row.id}: its entry ${row.entry_id} is missing`);

  const translationsWithoutTranslator = await db
    .selectFrom('translations as t')
    .leftJoin('users as u', 'u.id', 't.translator_id')
    .select(['t.id', 't.translator_id'])
    .where('u.id', 'is', null)
    .execute();
  for (const row of translationsWithoutTranslator) found.push(`translation ${row.id}: its translator ${row.translator_id} is missing`);

  const membersWithoutParents = await db
    .selectFrom('project_members as m')
    .leftJoin('projects as p', 'p.id', 'm.project_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.project_id', 'm.user_id', 'p.id as found_project', 'u.id as found_user'])
    .where((eb) => eb.or([eb('p.id', 'is', null), eb('u.id', 'is', null)]))
    .execute();
  for (const row of membersWithoutParents) {
    if (row.found_project === null) found.push(`member ${row.user_id}: its project ${row.project_id} is missing`);
    if (row.found_user === null) found.push(`member ${row.user_id} of project ${row.project_id}: the user is missing`);
  }

  const projectsWithoutOwner = await db
    .selectFrom('projects as p')
    .leftJoin('users as u', 'u.id', 'p.owner_id')
    .select(['p.id', 'p.owner_id'])
    .where('u.id', 'is', null)
    .execute();
  for (const row of projectsWithoutOwner) found.push(`project ${row.id}: its owner ${row.owner_id} is missing`);

  const ownersAsMembers = await db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select(['m.project_id', 'm.user_id'])
    .whereRef('m.user_id', '=', 'p.owner_id')
    .execute();
  for (const row of ownersAsMembers) found.push(`project ${row.project_id}: its owner ${row.user_id} is also a member`);
  return found;
}

/** Two siblings with one technical name (groups per parent, entries per group, a group named like an entry of its parent). */
async function duplicateNames(db: Kysely<Database>): Promise<string[]> {
  const found: string[] = [];
  const groupTwins = await db
    .selectFrom('groups')
    .select(['project_id', 'parent_id', 'technical_name', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['project_id', 'parent_id', 'technical_name'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const row of groupTwins) {
    found.push(`project ${row.project_id}: ${row.n} groups named "${row.technical_name}" under ${row.parent_id ?? 'the top level'}`);
  }

  const entryTwins = await db
    .selectFrom('entries')
    .select(['group_id', 'technical_name', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['group_id', 'technical_name'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const row of entryTwins) found.push(`group ${row.group_id}: ${row.n} entries named "${row.technical_name}"`);

  const groupNamedLikeEntry = await db
    .selectFrom('groups as g')
    .innerJoin('entries as e', (join) => join.onRef('e.group_id', '=', 'g.parent_id').onRef('e.technical_name', '=', 'g.technical_name'))
    .select(['g.id', 'g.parent_id', 'g.technical_name', 'e.id as entry_id'])
    .execute();
  for (const row of groupNamedLikeEntry) {
    found.push(`group ${row.id} is named "${row.technical_name}" like entry ${row.entry_id} of its parent ${row.parent_id}`);
  }

  const translationTwins = await db
    .selectFrom('translations')
    .select(['entry_id', 'language', (eb) => eb.fn.countAll().as('n')])
    .groupBy(['entry_id', 'language'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const row of translationTwins) found.push(`entry ${row.entry_id}: ${row.n} translations in ${row.language}`);
  return found;
}

/** Cycles and groups deeper than the limit, walking the parent links in memory. */
async function treeShape(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('groups').select(['id', 'parent_id']).execute();
  const parentOf = new Map(rows.map((row) => [row.id, row.parent_id]));
  const found: string[] = [];
  const inCycle = new Set<string>();
  for (const row of rows) {
    const seen = new Set<string>([row.id]);
    let depth = 1;
    let parent = row.parent_id;
    while (parent !== null && parentOf.has(parent)) {
      if (seen.has(parent)) {
        if (!inCycle.has(parent)) found.push(`groups form a cycle: ${[...seen].join(' → ')} → ${parent}`);
        for (const id of seen) inCycle.add(id);
        depth = -1;
        break;
      }
      seen.add(parent);
      depth += 1;
      parent = parentOf.get(parent) ?? null;
    }
    if (depth > MAX_DEPTH) found.push(`group ${row.id} has depth ${depth} > ${MAX_DEPTH}`);
  }
  return found;
}

/** Stored text that the API's own rules would refuse: unknown locale tags, malformed technical names or language lists. */
async function values(db: Kysely<Database>): Promise<string[]> {
  const found: string[] = [];
  const languages = await db.selectFrom('translations').select('language').distinct().execute();
  for (const { language } of languages) if (!isKnownLocale(language)) found.push(`translations in unknown language "${language}"`);

  const projects = await db.selectFrom('projects').select(['id', 'base_language', 'translation_languages']).execute();
  for (const project of projects) {
    if (!isKnownLocale(project.base_language)) found.push(`project ${project.id}: unknown base language "${project.base_language}"`);
    let list: unknown;
    try {
      list = JSON.parse(project.translation_languages);
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list) || list.some((tag) => typeof tag !== 'string' || !isKnownLocale(tag))) {
      found.push(`project ${project.id}: translation languages ${project.translation_languages} are not a list of known tags`);
    }
  }

  const groups = await db.selectFrom('groups').select(['id', 'technical_name']).execute();
  for (const group of groups) {
    const length = [...group.technical_name].length;
    if (!GROUP_NAME.test(group.technical_name) || length > 100) found.push(`group ${group.id}: technical name "${group.technical_name}" breaks the rules`);
  }
  const entries = await db.selectFrom('entries').select(['id', 'technical_name']).execute();
  for (const entry of entries) {
    const length = [...entry.technical_name].length;
    if (!GROUP_NAME.test(entry.technical_name) || length < 4 || length > 100) found.push(`entry ${entry.id}: technical name "${entry.technical_name}" breaks the rules`);
  }
  return found;
}

/** Every violation of the store's invariants, one line each; [] when the store is sound. */
export async function checkIntegrity(db: Kysely<Database>): Promise<string[]> {
  return [...(await orphans(db)), ...(await duplicateNames(db)), ...(await treeShape(db)), ...(await values(db))];
}

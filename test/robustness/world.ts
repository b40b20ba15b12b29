/** Shared set-up of the robustness tests: seeded randomness and a bystander's data that must never change. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** A small seeded PRNG (mulberry32): the same seed gives the same choices on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

/** Everything stored about one user and the projects it owns, in a stable order (for before/after comparison). */
export async function snapshotOf(db: Kysely<Database>, usage: Kysely<Database>, userId: string) {
  const projects = await db.selectFrom('projects').selectAll().where('owner_id', '=', userId).orderBy('id').execute();
  const projectIds = projects.map((project) => project.id);
  const inProjects = projectIds.length > 0 ? projectIds : ['-'];
  const entries = await db.selectFrom('entries').selectAll().where('project_id', 'in', inProjects).orderBy('id').execute();
  const entryIds = entries.length > 0 ? entries.map((entry) => entry.id) : ['-'];
  return {
    user: await db.selectFrom('users').selectAll().where('id', '=', userId).execute(),
    keys: await db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    usage: await usage.selectFrom('daily_usage').selectAll().where('user_id', '=', userId).orderBy('day').execute(),
    // Others may invite the user (a pending row in their project); only the user can accept.
    memberships: await db
      .selectFrom('project_members')
      .selectAll()
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .orderBy('project_id')
      .execute(),
    projects,
    members: await db.selectFrom('project_members').selectAll().where('project_id', 'in', inProjects).orderBy('project_id').orderBy('user_id').execute(),
    groups: await db.selectFrom('groups').selectAll().where('project_id', 'in', inProjects).orderBy('id').execute(),
    entries,
    translations: await db.selectFrom('translations').selectAll().where('entry_id', 'in', entryIds).orderBy('id').execute(),
  };
}

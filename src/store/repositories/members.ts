/** Project members. */
import type { Db } from '../schema.js';

/** The owner's member limit and the number of confirmed members (the owner not counted). */
export async function memberCounts(db: Db, projectId: string): Promise<{ limit: number; confirmed: number }> {
  const row = await db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .select((eb) => [
      'users.member_limit as limit',
      eb
        .selectFrom('project_members as m')
        .select(eb.fn.countAll().as('n'))
        .whereRef('m.project_id', '=', 'projects.id')
        .where('m.confirmed_at', 'is not', null)
        .as('confirmed'),
    ])
    .where('projects.id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { limit: Number(row.limit), confirmed: Number(row.confirmed ?? 0) };
}

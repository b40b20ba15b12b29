/** POST /change-sets/{id}/revert and POST /changes/{id}/revert (CONTRACT "History"). */
import { revertChange, revertChangeSet, type RevertOptions } from '../../domain/changes/revert/revert.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams } from '../schemas/common.js';
import { RevertAnswer, RevertQuery } from '../schemas/revert.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['history'];

const optionsOf = (query: { dryRun?: boolean; onConflict?: 'abort' | 'skip' }): RevertOptions => ({
  dryRun: query.dryRun ?? false,
  onConflict: query.onConflict ?? 'abort',
});

const schema = (what: string) => ({
  tags,
  security: bearer,
  description:
    `Puts back what ${what} replaced, as a new change set (source revert), never over a later edit: per object, now as the change left it → restored; ` +
    'as before it → unchanged; else a conflict (409 with onConflict=abort, listed and left with skip). Needs the capabilities of the writes it undoes.',
  params: IdParams,
  querystring: RevertQuery,
  response: { 200: RevertAnswer, ...errors(400, 403, 404, 409) },
});

export const revertRoutes: RoutePlugin = async (app, { db }) => {
  app.post('/change-sets/:id/revert', { schema: schema('a change set') }, (request) =>
    revertChangeSet(db, principalOf(request), request.params.id, optionsOf(request.query)),
  );
  app.post('/changes/:id/revert', { schema: schema('one change') }, (request) => revertChange(db, principalOf(request), request.params.id, optionsOf(request.query)));
};

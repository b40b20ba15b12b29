/**
 * A small world driven through every operation of the API, successes and the usual failures, as
 * a client would; every answer goes through `call`, which checks it against the OpenAPI document.
 */
import { expect } from 'vitest';
import { hashSecret } from '../../src/domain/keys/api-keys.js';
import { replaceEmailVerification } from '../../src/store/repositories/users.js';
import type { ApiResponse, RequestOptions, TestServer } from '../helpers/server.js';

/** Makes the request, checks the response against the document, and asserts the expected status. */
export type Call = (method: string, path: string, status: number, options?: RequestOptions) => Promise<ApiResponse>;

const EXPORT_FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'];

/** Projects, groups, entries, translations, members, exports and the error statuses, in one script. */
export async function driveSampleWorld(server: TestServer, call: Call): Promise<void> {
  const [owner, second, third, thrifty] = [await server.user(), await server.user(), await server.user(), await server.user({ dailyQuota: 1 })];
  const key = owner.apiKey;

  await call('GET', '/version', 200);
  await call('GET', '/locales', 200);
  await call('GET', '/openapi.json', 200);
  await call('GET', '/info', 200, { key });
  await call('PATCH', '/info', 200, { key, body: { timezone: 'Europe/Berlin' } });
  await call('PATCH', '/info', 400, { key, body: { locale: 'no-such-locale' } });
  await call('GET', '/info', 401, { key: 'tolk_not-a-key' });
  await call('GET', '/info', 200, { key: thrifty.apiKey });
  await call('GET', '/info', 429, { key: thrifty.apiKey });
  // The budget answers past the quota too (quota-free).
  await call('GET', '/usage', 200, { key: thrifty.apiKey });
  await call('GET', '/usage', 401, { key: 'tolk_not-a-key' });

  const project = (await call('POST', '/projects', 200, { key, body: { name: 'Shop app', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] } })).body;
  const p = `/projects/${project.id}`;
  await call('POST', '/projects', 400, { key, body: { name: 'x' } });
  await call('POST', '/projects', 415, { key, rawBody: 'name=Shop', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  await call('POST', '/projects', 413, { key, rawBody: JSON.stringify({ name: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
  await call('GET', '/projects', 200, { key });
  await call('GET', p, 200, { key });
  await call('GET', '/projects/no-such-project', 404, { key });
  await call('PATCH', p, 200, { key, body: { name: 'Shop app 2' } });

  const group = (await call('POST', `${p}/groups`, 200, { key, body: { technicalName: 'auth', displayName: 'Authentication' } })).body;
  const sub = (await call('POST', `${p}/groups`, 200, { key, body: { technicalName: 'login', displayName: 'Login', parentId: group.id } })).body;
  await call('POST', `${p}/groups`, 409, { key, body: { technicalName: 'auth', displayName: 'Again' } });
  await call('GET', `${p}/groups`, 200, { key });
  await call('GET', `${p}/groups?parentId=${group.id}&limit=10`, 200, { key });
  await call('GET', `${p}/groups/summary`, 200, { key });
  await call('GET', `/groups/${sub.id}`, 200, { key });
  await call('GET', '/groups/no-such-group', 404, { key });
  await call('PATCH', `/groups/${sub.id}`, 200, { key, body: { displayName: 'Login form' } });

  const entry = (await call('POST', `/groups/${sub.id}/entries`, 200, { key, body: { technicalName: 'submit', baseTerm: 'Sign in', contextInfo: 'Button' } })).body;
  await call('POST', `/groups/${sub.id}/entries`, 409, { key, body: { technicalName: 'submit', baseTerm: 'Again' } });
  await call('GET', `/groups/${sub.id}/entries?search=sign`, 200, { key });
  await call('GET', `/groups/${sub.id}/entries?withTranslations=true&limit=10`, 200, { key });
  await call('GET', `${p}/progress`, 200, { key });
  await call('GET', '/projects/no-such-project/progress', 404, { key });
  await call('PATCH', `/entries/${entry.id}`, 200, { key, body: { contextInfo: null } });
  await call('GET', `${p}/entries/untranslated?languageCode=de`, 200, { key });
  await call('GET', `${p}/entries/untranslated`, 400, { key });
  const saved = await call('PUT', `/entries/${entry.id}/translations`, 200, { key, body: { language: 'de', translation: 'Anmelden' } });
  await call('PUT', `/entries/${entry.id}/translations`, 200, { key, body: { language: 'de', translation: 'Einloggen' }, headers: { 'if-match': saved.headers.get('etag')! } });
  await call('PUT', `/entries/${entry.id}/translations`, 412, { key, body: { language: 'de', translation: 'Los' }, headers: { 'if-match': saved.headers.get('etag')! } });
  await call('PUT', `/entries/${entry.id}/translations`, 412, { key, body: { language: 'de', translation: 'Los' }, headers: { 'if-none-match': '*' } });
  await call('PUT', `/entries/${entry.id}/translations`, 200, { key, body: { language: 'pt-BR', translation: 'Entrar' }, headers: { 'if-none-match': '*' } });
  await call('GET', `/entries/${entry.id}`, 200, { key });
  await call('DELETE', `/entries/${entry.id}/translations`, 412, { key, body: { language: 'pt-BR' }, headers: { 'if-match': saved.headers.get('etag')! } });
  await call('DELETE', `/entries/${entry.id}/translations`, 204, { key, body: { language: 'pt-BR' } });
  await call('POST', `/entries/${entry.id}/translations/review`, 412, { key, body: { language: 'de' }, headers: { 'if-match': saved.headers.get('etag')! } });
  await call('POST', `/entries/${entry.id}/translations/review`, 200, { key, body: { language: 'de' } });
  await call('POST', `/entries/${entry.id}/translations/review`, 404, { key, body: { language: 'pt-BR' } });
  await call('DELETE', `/entries/${entry.id}/translations/review`, 200, { key, body: { language: 'de' } });
  await call('PATCH', `/entries/${entry.id}`, 200, { key, body: { baseTerm: 'Sign in now' } });
  await call('GET', `${p}/entries/unreviewed?languageCode=de&limit=10`, 200, { key });
  await call('GET', `${p}/entries/unreviewed?languageCode=en`, 400, { key });
  await call('POST', `/entries/${entry.id}/translations/confirm`, 200, { key, body: { language: 'de' } });
  await call('POST', `/entries/${entry.id}/translations/confirm`, 400, { key, body: { language: 'en' } });
  await call('POST', `${p}/reviews`, 200, { key, body: { language: 'de', entryIds: [entry.id, 'no-such-entry'] } });
  await call('POST', `${p}/reviews`, 400, { key, body: { language: 'de', entryIds: [] } });

  const counted = (await call('POST', `/groups/${sub.id}/entries`, 200, { key, body: { technicalName: 'itemCount', baseTerm: '{count, plural, one {# item} other {# items}}' } })).body;
  await call('POST', `/groups/${sub.id}/entries`, 400, { key, body: { technicalName: 'greeting', baseTerm: 'Hello {{name}}' } });
  await call('PUT', `/entries/${counted.id}/translations`, 200, { key, body: { language: 'de', translation: '{count, plural, one {# Artikel} few {#} other {# Artikel}}' } });
  await call('GET', `${p}/checks`, 200, { key });
  await call('GET', `${p}/checks?check=plural-forms&language=de&limit=10`, 200, { key });
  await call('GET', `${p}/checks?language=fr`, 400, { key });
  await call('POST', `${p}/import?format=json&dryRun=true`, 200, { key, body: { en: { auth: { welcome: 'Welcome, {name}' } }, de: { auth: { welcome: 'Willkommen, {name}' } } } });
  await call('POST', `${p}/import?format=json`, 200, { key, body: { en: { imported: { title: 'Imported' } } } });
  await call('POST', `${p}/import?format=json`, 400, { key, body: { en: { imported: { Bad_Name: 'x' } } } });
  await call('POST', `${p}/import?format=json`, 415, { key, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
  await call('POST', `${p}/import?format=flutter`, 400, { key, rawBody: 'not gzip', headers: { 'content-type': 'application/gzip' } });
  await call('GET', '/projects/no-such-project/checks', 404, { key });
  await call('GET', `${p}/export/i18next?syntax=icu`, 200, { key });
  await call('GET', `${p}/export/flutter?escaping=true`, 200, { key });
  await call('DELETE', `/entries/${counted.id}`, 204, { key });

  for (const format of EXPORT_FORMATS) {
    const exported = await call('GET', `${p}/export/${format}?format=true`, 200, { key });
    await call('GET', `${p}/export/${format}?format=true`, 304, { key, headers: { 'if-none-match': exported.headers.get('etag')! } });
    await call('GET', `/projects/no-such-project/export/${format}`, 404, { key });
  }

  await call('POST', `${p}/members`, 200, { key, body: { email: second.email, role: 'editor' } });
  await call('POST', `${p}/members`, 409, { key, body: { email: second.email, role: 'editor' } });
  await call('GET', '/invitations', 200, { key: second.apiKey });
  await call('POST', `${p}/members/accept`, 200, { key: second.apiKey });
  await call('POST', `${p}/members`, 200, { key, body: { email: third.email, role: 'viewer' } });
  await call('POST', `${p}/members/accept`, 200, { key: third.apiKey });
  await call('GET', `${p}/members`, 200, { key });
  await call('PATCH', `/entries/${entry.id}`, 403, { key: third.apiKey, body: { baseTerm: 'Log in' } });
  await call('PATCH', `${p}/members/${third.id}`, 200, { key, body: { role: 'translator' } });
  await call('DELETE', `${p}/members/${third.id}`, 204, { key });
  // an address without an account: a pending invitation all the same, accepted with its one-time token only
  const invited = await call('POST', `${p}/members`, 200, { key, body: { email: 'not-yet-here@example.com', role: 'viewer' } });
  await call('POST', `${p}/members/accept`, 403, { key: third.apiKey, body: { token: 'not-the-token' } });
  await call('POST', `${p}/members/accept`, 200, { key: third.apiKey, body: { token: invited.body.invitationToken } });
  await call('DELETE', `${p}/members/${third.id}`, 204, { key });

  await call('DELETE', `/entries/${entry.id}`, 204, { key });
  await call('DELETE', `/groups/${sub.id}`, 204, { key });
  // the history of every write above: each target and op, the import's, the group delete's
  await call('GET', `${p}/changes`, 200, { key });
  await call('GET', `${p}/changes?entryId=${entry.id}&limit=5`, 200, { key });
  const [groupDelete] = (await call('GET', `${p}/changes?target=group&op=delete`, 200, { key })).body.result;
  await call('GET', `${p}/changes?target=member`, 400, { key });
  await call('GET', '/projects/no-such-project/changes', 404, { key });
  await call('GET', `${p}/change-sets`, 200, { key });
  await call('GET', `${p}/change-sets?afterVersion=2&source=import`, 200, { key });
  await call('GET', `${p}/change-sets?language=de`, 200, { key });
  await call('GET', `${p}/change-sets?afterVersion=-1`, 400, { key });
  await call('GET', '/projects/no-such-project/change-sets', 404, { key });
  // the group delete undone (a dry run, then for real: back under a new id) and redone
  await call('POST', `/changes/${groupDelete.id}/revert?dryRun=true`, 200, { key });
  const restored = (await call('POST', `/changes/${groupDelete.id}/revert`, 200, { key })).body;
  await call('POST', `/change-sets/${restored.changeSet.id}/revert?onConflict=skip`, 200, { key });
  await call('POST', '/change-sets/no-such-set/revert', 404, { key });
  await call('POST', `/changes/${groupDelete.id}/revert?onConflict=never`, 400, { key });
  await call('POST', `${p}/transfer-ownership`, 200, { key, body: { userId: second.id } });
  await call('DELETE', p, 403, { key });
  await call('DELETE', p, 204, { key: second.apiKey });
  await driveWebSession(server, call);
}

/** The web application's account routes: sign-up, session, sign-in, keys, password, sign-out. */
async function driveWebSession(server: TestServer, call: Call): Promise<void> {
  const origin = new URL(server.baseUrl).origin;
  const account = { email: `openapi-${Date.now()}@example.com`, password: 'a long enough secret' };
  await call('GET', '/auth/session', 200);
  await call('POST', '/auth/sign-up', 400, { body: { ...account, password: 'short', firstName: 'Open', lastName: 'Api' }, headers: { origin } });
  const signedUp = await call('POST', '/auth/sign-up', 201, { body: { ...account, firstName: 'Open', lastName: 'Api' }, headers: { origin } });
  await call('POST', '/auth/sign-up', 409, { body: { ...account, firstName: 'Open', lastName: 'Api' }, headers: { origin } });
  await call('POST', '/auth/sign-in', 401, { body: { ...account, password: 'not the password' }, headers: { origin } });
  await call('POST', '/auth/sign-in', 403, { body: account, headers: { origin: 'https://elsewhere.example' } });
  const signedIn = await call('POST', '/auth/sign-in', 200, { body: account, headers: { origin } });
  const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const headers = { cookie, origin, 'x-csrf-token': signedIn.body.csrfToken as string };
  expect(signedUp.body.csrfToken).toEqual(expect.any(String));
  await call('GET', '/auth/session', 200, { headers: { cookie } });
  await call('POST', '/keys', 403, { headers: { cookie, origin }, body: { name: 'no token' } });
  const created = await call('POST', '/keys', 201, { headers, body: { name: 'ci' } });
  await call('POST', '/keys', 400, { headers, body: { name: '' } });
  await call('GET', '/keys', 200, { headers });
  await call('GET', '/keys', 403, { key: created.body.secret });
  await call('DELETE', `/keys/${created.body.id}`, 204, { headers });
  await call('DELETE', `/keys/${created.body.id}`, 404, { headers });
  await call('PUT', '/auth/password', 400, { headers, body: { currentPassword: 'wrong', newPassword: 'another long secret' } });
  await call('PUT', '/auth/password', 204, { headers, body: { currentPassword: account.password, newPassword: 'another long secret' } });
  // e-mail verification: sign-up mailed a link a moment ago; a new one only after a minute
  await call('POST', '/auth/verify-email/resend', 429, { headers });
  await server.store.db.updateTable('email_verifications').set({ created_at: '2000-01-01T00:00:00.000Z' }).execute();
  await call('POST', '/auth/verify-email/resend', 204, { headers });
  await call('POST', '/auth/verify-email', 400, { body: { token: 'not-a-link-token' }, headers: { origin } });
  const token = 'a-token-of-a-link-mailed-to-this-account';
  await replaceEmailVerification(server.store.db, signedUp.body.user.id, hashSecret(token), new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
  await call('POST', '/auth/verify-email', 204, { body: { token }, headers: { origin } });
  await call('POST', '/auth/verify-email/resend', 409, { headers });
  await call('POST', '/auth/sign-out', 204, { headers });
}

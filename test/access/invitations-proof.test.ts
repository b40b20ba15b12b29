/**
 * An invitation is accepted only by someone who proves the address (issue 30, M4 and L2): an account
 * an administrator made, an account whose address was verified through a link mailed over real SMTP
 * (smtp-server listening on loopback receives it), or whoever holds the invitation's one-time token.
 * Signing up with an address proves nothing, and inviting answers alike whether the address has an
 * account or not.
 */
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { acceptInvitation } from '../../src/domain/members/invitations.js';
import { createSmtpMailer } from '../../src/mail/mailer.js';
import * as migration from '../../src/store/migrations/009-invitation-proof.js';
import { openBrowserSession, type BrowserSession } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { openTestStore, startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';
const PUBLIC_URL = 'https://tolk.example.test';

interface ReceivedMail {
  to: string[];
  text: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
async function startMailSink(): Promise<{ port: number; mails: ReceivedMail[]; close: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // Quoted-printable soft line breaks and =3D: enough to read a link back out of a text mail.
        const text = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const port = (sink.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => sink.close(() => resolve())) };
}

/** Waits for the mail to `to` whose text matches `pattern` (mail leaves in the background). */
async function mailTo(mails: ReceivedMail[], to: string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let attempt = 0; attempt < 200; attempt++) {
    for (const mail of mails) {
      const match = mail.to.includes(to) ? mail.text.match(pattern) : null;
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

let addressCount = 0;
const freshAddress = (name: string) => `${name}-${Date.now()}-${++addressCount}@example.com`;

describe.each(DIALECTS)('invitations need a proved address on %s', (dialect) => {
  let server: TestServer;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  beforeAll(async () => {
    sink = await startMailSink();
    server = await startServer(dialect, {
      trustProxy: true,
      publicUrl: PUBLIC_URL,
      mailer: createSmtpMailer(`smtp://127.0.0.1:${sink.port}`, 'tolk <no-reply@tolk.example.test>'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const signUp = (email: string): Promise<BrowserSession> => openBrowserSession(server, { email, password: PASSWORD }, { firstName: 'Sam', lastName: 'Signup' });

  /** An owner (made by the CLI's code) and a project with an entry and its German translation. */
  async function project() {
    const owner = await server.user();
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'greeting', 'Hello');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Hallo');
    return { owner, id: project.id as string, entryId: entry.id as string };
  }

  const invite = (p: { owner: { apiKey: string }; id: string }, email: string, role = 'editor') =>
    server.api('POST', `/projects/${p.id}/members`, { key: p.owner.apiKey, body: { email, role } });

  it("refuses the invitation to whoever signed up with the invitee's address first: 403, and the squatter reads and writes nothing", async () => {
    const p = await project();
    const victim = freshAddress('victim');
    const squatter = await signUp(victim);
    expect((await invite(p, victim)).status).toBe(200);

    const accepted = await squatter.call('POST', `/projects/${p.id}/members/accept`);
    expect(accepted.status, accepted.text).toBe(403);
    expect(accepted.body).toMatchObject({ code: 'ERR_FORBIDDEN', message: expect.stringMatching(/verify your e-mail address.*invitation link/) });
    expect((await squatter.call('GET', `/projects/${p.id}/export/json`)).status).toBe(404);
    const write = await squatter.call('PUT', `/entries/${p.entryId}/translations`, { body: { language: 'de', translation: 'Gekapert' } });
    expect(write.status).toBe(404);
    // Nor does it learn of the invitation, or throw it away.
    expect((await squatter.call('GET', '/invitations')).body).toEqual([]);
    expect((await squatter.call('DELETE', `/projects/${p.id}/members/${squatter.user.id}`)).status).toBe(403);
    const members = await server.api('GET', `/projects/${p.id}/members`, { key: p.owner.apiKey });
    expect(members.body.result).toEqual([expect.objectContaining({ email: victim, confirmed: false })]);
  });

  it('accepts with the one-time token once: whoever holds it becomes the member, a second use is refused', async () => {
    const p = await project();
    const invited = await invite(p, freshAddress('friend'), 'translator');
    const { invitationToken, invitationUrl } = invited.body;
    expect(invitationUrl).toBe(`${PUBLIC_URL}/invitations/accept?project=${p.id}#token=${invitationToken}`);
    const holder = await signUp(freshAddress('holder'));
    const other = await signUp(freshAddress('other'));

    expect((await other.call('POST', `/projects/${p.id}/members/accept`, { body: { token: 'not-the-token' } })).status).toBe(403);
    const accepted = await holder.call('POST', `/projects/${p.id}/members/accept`, { body: { token: invitationToken } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ userId: holder.user.id, role: 'translator', confirmed: true, firstName: 'Sam' });
    // again by the member: changes nothing; by anyone else: the token is used up
    expect((await holder.call('POST', `/projects/${p.id}/members/accept`, { body: { token: invitationToken } })).body).toEqual(accepted.body);
    const second = await other.call('POST', `/projects/${p.id}/members/accept`, { body: { token: invitationToken } });
    expect(second.status, second.text).toBe(403);
    expect(second.body.code).toBe('ERR_FORBIDDEN');
    expect((await other.call('GET', `/projects/${p.id}`)).status).toBe(404);
    expect((await holder.call('PUT', `/entries/${p.entryId}/translations`, { body: { language: 'de', translation: 'Hallo!' } })).status).toBe(200);
    const members = await server.api('GET', `/projects/${p.id}/members`, { key: p.owner.apiKey });
    expect(members.body.result.map((m: { userId: string; confirmed: boolean }) => [m.userId, m.confirmed])).toEqual([[holder.user.id, true]]);
    // only the token's hash is stored
    const stored = await server.store.db.selectFrom('invitations').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(invitationToken);
  });

  it('lets an account an administrator made (tolk users create) accept without a token', async () => {
    const p = await project();
    const vouched = await server.user();
    expect((await invite(p, vouched.email.toUpperCase(), 'viewer')).status).toBe(200);
    expect((await server.api('GET', '/invitations', { key: vouched.apiKey })).body).toEqual([expect.objectContaining({ projectId: p.id, role: 'viewer' })]);
    const accepted = await server.api('POST', `/projects/${p.id}/members/accept`, { key: vouched.apiKey });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ userId: vouched.id, role: 'viewer', confirmed: true });
  });

  it('lets an account accept once its address is verified through the link mailed at sign-up (real SMTP)', async () => {
    const p = await project();
    const email = freshAddress('verified');
    const user = await signUp(email);
    expect(user.user).toMatchObject({ emailVerified: false });
    expect((await invite(p, email)).status).toBe(200);
    expect((await user.call('POST', `/projects/${p.id}/members/accept`)).status).toBe(403);

    const [, token] = await mailTo(sink.mails, email, new RegExp(`${PUBLIC_URL}/verify-email#token=([\\w-]+)`));
    const verified = await server.api('POST', '/auth/verify-email', { body: { token } });
    expect(verified.status, verified.text).toBe(204);
    expect((await user.call('GET', '/info')).body.emailVerified).toBe(true);
    const again = await server.api('POST', '/auth/verify-email', { body: { token } });
    expect(again.status).toBe(400);

    const accepted = await user.call('POST', `/projects/${p.id}/members/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ userId: user.user.id, role: 'editor', confirmed: true });
    expect((await user.call('POST', '/auth/verify-email/resend')).status).toBe(409);
  });

  it('answers an invitation alike whether the address has an account or not: same fields, no names, no account id', async () => {
    const p = await project();
    const known = await server.user();
    const answers = [await invite(p, known.email), await invite(p, freshAddress('nobody'))];
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const [forKnown, forUnknown] = answers.map((answer) => answer.body);
    expect(Object.keys(forKnown).sort()).toEqual(Object.keys(forUnknown).sort());
    for (const body of [forKnown, forUnknown]) {
      expect(body).toMatchObject({ firstName: '', lastName: '', confirmed: false, isOverLimit: false });
      expect(body.userId).toMatch(/^[a-z][0-9a-z]{23}$/);
    }
    expect(forKnown.userId).not.toBe(known.id);
    // The same address invited to a second project gets another id: ids cannot be compared across projects.
    const q = await createProjectWithGroup(server, p.owner.apiKey);
    expect((await invite({ owner: p.owner, id: q.project.id }, known.email)).body.userId).not.toBe(forKnown.userId);
    const listed = await server.api('GET', `/projects/${p.id}/members`, { key: p.owner.apiKey });
    for (const member of listed.body.result) expect(member).toMatchObject({ firstName: '', lastName: '' });
    expect(listed.body.result.map((m: { userId: string }) => m.userId)).not.toContain(known.id);
  });

  it('lets an address invited before it had an account accept once it exists and proves itself', async () => {
    const p = await project();
    const email = freshAddress('later');
    const invited = await invite(p, email, 'viewer');
    const user = await signUp(email);
    expect((await user.call('POST', `/projects/${p.id}/members/accept`)).status).toBe(403);
    const accepted = await user.call('POST', `/projects/${p.id}/members/accept`, { body: { token: invited.body.invitationToken } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ userId: user.user.id, email, role: 'viewer', confirmed: true });
  });

  it('keeps 409 for a sign-up with a taken address, and mails its owner about the attempt', async () => {
    const owner = await server.user();
    const response = await server.api('POST', '/auth/sign-up', {
      body: { email: owner.email, password: PASSWORD, firstName: 'Eve', lastName: 'Stranger' },
      headers: { origin: new URL(server.baseUrl).origin },
    });
    expect(response.status).toBe(409);
    await mailTo(sink.mails, owner.email, /tried to make a new tolk account/);
  });

  it('sends a new link on request, at most one a minute (429 with Retry-After)', async () => {
    const email = freshAddress('resend');
    const user = await signUp(email);
    await mailTo(sink.mails, email, /verify-email#token=/);
    const soon = await user.call('POST', '/auth/verify-email/resend');
    expect(soon.status, soon.text).toBe(429);
    expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(0);
    await server.store.db.updateTable('email_verifications').set({ created_at: new Date(Date.now() - 120_000).toISOString() }).execute();
    expect((await user.call('POST', '/auth/verify-email/resend')).status).toBe(204);
    const links = () => sink.mails.filter((mail) => mail.to.includes(email) && mail.text.includes('/verify-email#token=')).length;
    for (let attempt = 0; attempt < 200 && links() < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(links()).toBe(2);
  });

  it('keeps the store sound (tolk doctor finds nothing)', async () => {
    expect(await checkIntegrity(server.store.db)).toEqual([]);
  });
});

describe.each(DIALECTS)('without SMTP on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  it('signs up without mail, accounts stay unverified, and asking for a link says there is no mail (409)', async () => {
    const user = await openBrowserSession(server, { email: freshAddress('nomail'), password: PASSWORD }, { firstName: 'No', lastName: 'Mail' });
    expect(user.user).toMatchObject({ emailVerified: false });
    const resend = await user.call('POST', '/auth/verify-email/resend');
    expect(resend.status).toBe(409);
    expect(resend.body.message).toMatch(/no mail/);
  });

  it('never fails a sign-up on a mail error (the mail server is down)', async () => {
    const down = await startServer(dialect, { publicUrl: PUBLIC_URL, mailer: createSmtpMailer('smtp://127.0.0.1:1', 'tolk <no-reply@tolk.example.test>') });
    try {
      const started = Date.now();
      const user = await openBrowserSession(down, { email: freshAddress('down'), password: PASSWORD }, { firstName: 'Mail', lastName: 'Down' });
      expect(user.user).toMatchObject({ emailVerified: false });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await down.close();
    }
  });
});

describe('mail configuration', () => {
  it('needs PUBLIC_URL with SMTP_URL: mailed links never take their host from a request', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25', PUBLIC_URL: 'https://tolk.example.com/' })).toMatchObject({
      publicUrl: 'https://tolk.example.com',
      smtp: { url: 'smtp://127.0.0.1:25', from: 'tolk <no-reply@tolk.example.com>' },
    });
    expect(loadConfig({}).smtp).toBeUndefined();
  });
});

describe.each(DIALECTS)('migration 009 on %s', (dialect) => {
  it('moves pending invitations out of the members, and keeps only administrator-made accounts vouched', async () => {
    const { store, dispose } = await openTestStore(dialect);
    try {
      const db = store.db;
      await migration.down(db as unknown as Kysely<unknown>);
      const now = Date.now();
      const at = (ms: number) => new Date(now + ms).toISOString();
      const user = (id: string, passwordHash: string | null) => ({
        id, email: `${id}@example.com`, email_key: `${id}@example.com`, first_name: id, last_name: 'X', locale: 'en', timezone: 'UTC',
        daily_quota: 10, member_limit: 5, password_hash: passwordHash, created_at: at(0),
      });
      const raw = db as unknown as Kysely<any>;
      await raw.insertInto('users').values([user('owner', null), user('cli', 'hash'), user('signup', 'hash'), user('keyless', null)]).execute();
      // the CLI's first key comes with the account; a signed-up user's "default" key came much later
      await raw.insertInto('api_keys').values([
        { id: 'k1', user_id: 'cli', name: 'default', prefix: 'tolk_a', secret_hash: 'h1', created_at: at(3), last_used_at: null, expires_at: null, revoked_at: null },
        { id: 'k2', user_id: 'signup', name: 'default', prefix: 'tolk_b', secret_hash: 'h2', created_at: at(3_600_000), last_used_at: null, expires_at: null, revoked_at: null },
      ]).execute();
      await raw.insertInto('projects').values({ id: 'p1', owner_id: 'owner', name: 'Old', base_language: 'en', translation_languages: '["de"]', content_version: 0, key_style: 'camelCase', created_at: at(0), updated_at: at(0) }).execute();
      await raw.insertInto('project_members').values([
        { project_id: 'p1', user_id: 'cli', role: 'editor', confirmed_at: null, created_at: at(1) },
        { project_id: 'p1', user_id: 'signup', role: 'viewer', confirmed_at: null, created_at: at(2) },
        { project_id: 'p1', user_id: 'keyless', role: 'viewer', confirmed_at: at(5), created_at: at(2) },
      ]).execute();

      await migration.up(db as unknown as Kysely<unknown>);

      const origins = await db.selectFrom('users').select(['id', 'created_by', 'email_verified_at']).orderBy('id').execute();
      expect(origins).toEqual([
        { id: 'cli', created_by: 'admin', email_verified_at: null },
        { id: 'keyless', created_by: 'admin', email_verified_at: null },
        { id: 'owner', created_by: 'admin', email_verified_at: null },
        { id: 'signup', created_by: 'sign-up', email_verified_at: null },
      ]);
      expect(await db.selectFrom('project_members').select('user_id').execute()).toEqual([{ user_id: 'keyless' }]);
      const moved = await db.selectFrom('invitations').select(['email', 'role', 'token_hash']).orderBy('email').execute();
      expect(moved).toEqual([
        { email: 'cli@example.com', role: 'editor', token_hash: null },
        { email: 'signup@example.com', role: 'viewer', token_hash: null },
      ]);
      // Existing invitations need proof like new ones: the vouched account accepts, the self-made one cannot.
      await expect(acceptInvitation(db, { userId: 'signup' }, 'p1')).rejects.toMatchObject({ code: 'ERR_FORBIDDEN' });
      expect(await acceptInvitation(db, { userId: 'cli' }, 'p1')).toMatchObject({ userId: 'cli', role: 'editor', confirmed: true });
      expect(await checkIntegrity(db)).toEqual([]);
    } finally {
      await store.close();
      await dispose();
    }
  });
});

/**
 * An invitation goes to whoever proves the address (issue 30, M4/L2). Users get `created_by`
 * ('admin': `tolk users create`, an administrator vouches for the address; 'sign-up': self-made) and
 * `email_verified_at`; e-mail verification links are kept as hashes. Pending invitations move out of
 * project_members into `invitations`, addressed by e-mail (an address without an account can be
 * invited too), each with its own id and the sha256 of its one-time token; project_members keeps
 * confirmed members only. Frozen.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** A CUID-shaped id (a letter, then 23 base-36 characters), like every other id. */
function invitationId(): string {
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(24);
  let id = digits[10 + (bytes[0]! % 26)]!;
  for (let i = 1; i < 24; i += 1) id += digits[bytes[i]! % 36];
  return id;
}

/** `tolk users create` makes a key named 'default' in the user's own transaction; sign-up makes none. */
const CLI_KEY_WINDOW_MS = 60_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('created_by', 'text', (c) => c.notNull().defaultTo('sign-up')).execute();
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
  // Accounts from before: those the CLI made keep the administrator's word, self-made ones must prove
  // the address like new ones. Without a password only the CLI can have made an account; with one, the
  // CLI's first key (created with the account) tells them apart from sign-up.
  const users: { id: string; created_at: string; password_hash: string | null }[] = await db.selectFrom('users').select(['id', 'created_at', 'password_hash']).execute();
  const firstKeys: { user_id: string; first: string }[] = await db
    .selectFrom('api_keys')
    .select(['user_id', (eb) => eb.fn.min('created_at').as('first')])
    .where('name', '=', 'default')
    .groupBy('user_id')
    .execute();
  const firstKeyOf = new Map(firstKeys.map((row) => [row.user_id, row.first]));
  const vouched = users.filter((user) => {
    if (user.password_hash === null) return true;
    const key = firstKeyOf.get(user.id);
    return key !== undefined && Math.abs(Date.parse(key) - Date.parse(user.created_at)) < CLI_KEY_WINDOW_MS;
  });
  for (let i = 0; i < vouched.length; i += 500) {
    const ids = vouched.slice(i, i + 500).map((user) => user.id);
    await db.updateTable('users').set({ created_by: 'admin' }).where('id', 'in', ids).execute();
  }

  await db.schema
    .createTable('email_verifications')
    // sha256 of the link's token, hex: a stolen database does not yield working links
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_id').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    // lower-cased e-mail, as users.email_key
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    // sha256 of the one-time token, hex; null for invitations made before tokens (accepted with proof only)
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invitations_project_email', ['project_id', 'email_key'])
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('email_key').execute();

  const pending: { project_id: string; role: string; created_at: string; email: string; email_key: string }[] = await db
    .selectFrom('project_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.project_id', 'm.role', 'm.created_at', 'u.email', 'u.email_key'])
    .where('m.confirmed_at', 'is', null)
    .execute();
  for (let i = 0; i < pending.length; i += 200) {
    const rows = pending.slice(i, i + 200).map((row) => ({ id: invitationId(), ...row, token_hash: null }));
    await db.insertInto('invitations').values(rows).execute();
  }
  await db.deleteFrom('project_members').where('confirmed_at', 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Invitations of addresses with an account go back to project_members; the others cannot.
  await sql`insert into project_members (project_id, user_id, role, confirmed_at, created_at)
    select i.project_id, u.id, i.role, null, i.created_at from invitations i join users u on u.email_key = i.email_key
    where not exists (select 1 from project_members m where m.project_id = i.project_id and m.user_id = u.id)`.execute(db);
  await db.schema.dropTable('invitations').execute();
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  await db.schema.alterTable('users').dropColumn('created_by').execute();
}

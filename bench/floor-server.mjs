/**
 * The floor: not tolk, but the least work tolk's contract makes every request do on this stack, so that
 * the bench can say how far each tolk scenario is from what no implementation here could beat.
 * Every API request is counted exactly against its user's daily quota in the shared store (its answer
 * carries RateLimit-Remaining), and a save is durable before it is answered. So:
 *
 * - GET /floor/read: the request's count, run by tolk's own built code (dist/, chargeRequest →
 *   countRequest on the store's usage database, as tolk's quota hook runs it), and a small fixed JSON
 *   body through a response schema, with the RateLimit-* headers;
 * - PUT /floor/texts/:row: the same count, then one single-row upsert of the body's text into a row of
 *   2,000 of the floor's own table, committed by the store before the answer (autocommit, through
 *   tolk's Kysely instance and prepared-query helper; tolk's durability settings: SQLite WAL with
 *   synchronous=NORMAL, PostgreSQL the server's synchronous_commit).
 *
 * The store is opened as `tolk serve` opens it (config from the environment, openStore: migrations,
 * SQLite's usage file). No authentication, logging or security headers: the floor leaves out what the
 * contract does not make every request pay for in the store. The table `bench_floor_texts` is created
 * at start and dropped at the end; tolk's tables are only read (the user's quota) and counted in.
 *
 * Environment: PORT, DATABASE_URL (as tolk serve), FLOOR_USER_ID (an existing user, counted against).
 * Started by the bench as a child process on 127.0.0.1; stops when the bench closes its stdin, or on
 * SIGTERM/SIGINT.
 */
import Fastify from 'fastify';
import { sql } from 'kysely';
import { loadConfig } from '../dist/config.js';
import { chargeRequest, rateLimitHeaders } from '../dist/domain/quota/daily-quota.js';
import { isPostgres } from '../dist/store/dialect.js';
import { openStore } from '../dist/store/open-store.js';
import { prepared } from '../dist/store/prepared.js';

const FLOOR_TABLE = 'bench_floor_texts';
/** The rows a save picks from (the bench reads the number from /floor/ready). */
const FLOOR_ROWS = 2_000;

const config = loadConfig(process.env);
const userId = process.env.FLOOR_USER_ID;
if (!userId) throw new Error('floor-server: FLOOR_USER_ID must name an existing user');

const store = await openStore(config.databaseUrl, { namedStatements: config.namedStatements });
const user = await store.db.selectFrom('users').select(['id', 'daily_quota']).where('id', '=', userId).executeTakeFirst();
if (!user) {
  await store.close();
  throw new Error(`floor-server: no user ${userId} in the store`);
}
// What chargeRequest reads of an authenticated caller (domain/access/project-access.ts Principal).
const principal = { userId: user.id, dailyQuota: Number(user.daily_quota) };

await store.db.schema.dropTable(FLOOR_TABLE).ifExists().execute();
await store.db.schema
  .createTable(FLOOR_TABLE)
  .addColumn('id', 'integer', (column) => column.primaryKey())
  .addColumn('text', 'text', (column) => column.notNull())
  .execute();
await store.db
  .insertInto(FLOOR_TABLE)
  .values(Array.from({ length: FLOOR_ROWS }, (_, i) => ({ id: i + 1, text: `Floor text ${i + 1}` })))
  .execute();

/** The save: one row's text replaced, in one autocommitted statement compiled once (as tolk's hot queries are). */
const saveText = prepared(2, (db, id, text) =>
  db
    .insertInto(FLOOR_TABLE)
    .values({ id, text })
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ text: (eb) => eb.ref('excluded.text') })),
);

/** SQLite's journal mode and synchronous level of one connection, as `pragma` reports them. */
async function sqliteCommits(db) {
  const [{ journal_mode: journal }] = (await sql`pragma journal_mode`.execute(db)).rows;
  const [{ synchronous }] = (await sql`pragma synchronous`.execute(db)).rows;
  return `journal_mode=${journal} synchronous=${['OFF', 'NORMAL', 'FULL', 'EXTRA'][synchronous] ?? synchronous}`;
}

/** How the count and the save commit here, as the store runs them: reported by /floor/ready for the bench's notes. */
async function commitsOf() {
  if (!isPostgres(store.db)) {
    return { counting: `SQLite usage file, ${await sqliteCommits(store.usage)}`, saving: `SQLite main file, ${await sqliteCommits(store.db)}` };
  }
  const { rows } = await sql`select current_setting('synchronous_commit') as commit, current_setting('fsync') as fsync`.execute(store.db);
  return {
    counting: "PostgreSQL, synchronous_commit=off for the count's own transaction as tolk sets it",
    saving: `PostgreSQL autocommit, synchronous_commit=${rows[0].commit} fsync=${rows[0].fsync}`,
  };
}
const commits = await commitsOf();

const body = { id: 'floor', ok: true, message: 'counted, quota kept' };
const answer = {
  200: {
    type: 'object',
    properties: { id: { type: 'string' }, ok: { type: 'boolean' }, message: { type: 'string' } },
    required: ['id', 'ok', 'message'],
    additionalProperties: false,
  },
};

const app = Fastify({ logger: false });
// Without a logger, a failure would go unseen: its stack goes to stderr (the bench keeps the output's tail).
app.setErrorHandler((error, _request, reply) => {
  process.stderr.write(`floor-server: ${error?.stack ?? error}\n`);
  reply.code(error?.statusCode ?? 500).send({ statusCode: error?.statusCode ?? 500, code: error?.code ?? 'ERR_FLOOR', message: String(error?.message ?? error) });
});

app.get('/floor/ready', async () => ({ ready: true, ...commits, rows: FLOOR_ROWS, dailyQuota: principal.dailyQuota }));

app.get('/floor/read', { schema: { response: answer } }, async (_request, reply) => {
  reply.headers(rateLimitHeaders(await chargeRequest(store.usage, principal)));
  return body;
});

app.put(
  '/floor/texts/:row',
  {
    schema: {
      params: { type: 'object', properties: { row: { type: 'integer', minimum: 1, maximum: FLOOR_ROWS } }, required: ['row'] },
      body: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 10_000 } }, required: ['text'], additionalProperties: false },
      response: answer,
    },
  },
  async (request, reply) => {
    reply.headers(rateLimitHeaders(await chargeRequest(store.usage, principal)));
    await saveText(store.db, request.params.row, request.body.text);
    return body;
  },
);

let stopping = null;
/** Closes the listener, drops the floor's table, closes the store; runs once. */
function stop() {
  stopping ??= (async () => {
    let exitCode = 0;
    try {
      await app.close();
      await store.db.schema.dropTable(FLOOR_TABLE).ifExists().execute();
      await store.close();
    } catch (error) {
      process.stderr.write(`floor-server: stopping failed: ${error?.stack ?? error}\n`);
      exitCode = 1;
    }
    process.exit(exitCode);
  })();
  return stopping;
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop).on('close', stop).resume();

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

/**
 * The `tolk` command. Commands call the domain directly (never HTTP); each prints exactly one JSON
 * object on stdout, or a one-line reason on stderr with a non-zero exit. `doctor` alone prints its
 * report either way: problems found exit 1 with the report on stdout and their count on stderr.
 * `pull`, `push`, `history` and `revert` are the exceptions to "never HTTP": they are clients of a running server (see cli/pull/, cli/push/, cli/history/).
 * What is printed of stored or received text goes through terminal-text.ts, so no escape sequence reaches a terminal.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { inspectStore } from '../domain/integrity/inspect-store.js';
import { revokeKey } from '../domain/keys/api-keys.js';
import { setPasswordForEmail } from '../domain/accounts/account-use-cases.js';
import { hashPassword } from '../domain/accounts/passwords.js';
import { createKeyForEmail, createUser } from '../domain/users/create-user.js';
import { AppError } from '../errors.js';
import { inReadSnapshot } from '../store/read-snapshot.js';
import { openStore, openStoreReadOnly, type Store } from '../store/open-store.js';
import { readPasswordFromStdin } from './password-stdin.js';
import { jsonLine, printable } from './terminal-text.js';
import { registerPullCommand } from './pull/pull.js';
import { registerPushCommand } from './push/push.js';
import { registerHistoryCommand } from './history/history.js';
import { registerRevertCommand } from './history/revert.js';

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be a whole number ≥ 0');
  return Number(value);
}

/** Opens the store of DATABASE_URL, runs `work`, prints its result as JSON, and closes the store. */
async function withStore(work: (store: Store) => Promise<unknown>): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, { namedStatements: config.namedStatements });
  try {
    process.stdout.write(`${jsonLine(await work(store))}\n`);
  } finally {
    await store.close();
  }
}

const program = new Command('tolk').description('tolk: localization content service').showHelpAfterError();

program
  .command('serve')
  .description('serve the API (PORT, HOST, DATABASE_URL, LOG_LEVEL)')
  // Loaded on demand: the other commands need neither Fastify nor the routes, and start faster without them.
  .action(async () => (await import('../server.js')).serve(loadConfig()));

const users = program.command('users').description('manage users');
users
  .command('create')
  .description('create a user and a first API key')
  .requiredOption('--email <email>')
  .requiredOption('--first-name <name>')
  .requiredOption('--last-name <name>')
  .option('--locale <tag>', 'profile locale, a tag of GET /locales', 'en')
  .option('--timezone <zone>', 'IANA time zone', 'UTC')
  .option('--daily-quota <n>', 'authenticated API requests a day', wholeNumber)
  .option('--member-limit <n>', 'members the user\'s projects may have', wholeNumber)
  .option('--password-stdin', 'read a web sign-in password from the first line of standard input')
  .action(async (options) => {
    const passwordHash = options.passwordStdin ? await hashPassword(await readPasswordFromStdin()) : null;
    await withStore(({ db }) =>
      createUser(
        db,
        {
          email: options.email,
          firstName: options.firstName,
          lastName: options.lastName,
          locale: options.locale,
          timezone: options.timezone,
          dailyQuota: options.dailyQuota,
          memberLimit: options.memberLimit,
        },
        passwordHash,
      ),
    );
  });
users
  .command('set-password')
  .description("set a user's web sign-in password (signs out their browsers)")
  .requiredOption('--email <email>')
  .requiredOption('--password-stdin', 'read the password from the first line of standard input')
  .action(async (options) => {
    const password = await readPasswordFromStdin();
    await withStore(async ({ db }) => ({ ...(await setPasswordForEmail(db, options.email, password)), passwordSet: true }));
  });

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create another API key for a user')
  .requiredOption('--email <email>')
  .option('--name <name>', 'a name to recognise the key by', 'cli')
  .action((options) => withStore(({ db }) => createKeyForEmail(db, options.email, options.name)));
keys
  .command('revoke')
  .description('revoke an API key: it gets 401 at once')
  .requiredOption('--id <keyId>')
  .action((options) =>
    withStore(async ({ db }) => {
      if (!(await revokeKey(db, options.id))) throw new AppError('ERR_NOT_FOUND', `no live API key with id ${options.id}`);
      return { id: options.id, revoked: true };
    }),
  );

program
  .command('doctor')
  .description('check the store\'s invariants without changing it; exits 1 when it finds problems')
  .action(async () => {
    // Read-only and without migrating: a doctor must not change what it examines.
    const store = await openStoreReadOnly(loadConfig().databaseUrl);
    try {
      const report = await inReadSnapshot(store.reader, inspectStore);
      process.stdout.write(`${jsonLine(report)}\n`);
      if (!report.ok) {
        process.stderr.write(`tolk doctor: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} found\n`);
        process.exitCode = 1;
      }
    } finally {
      await store.close();
    }
  });

registerPullCommand(program);
registerPushCommand(program);
registerHistoryCommand(program);
registerRevertCommand(program);

program.parseAsync().catch((error: unknown) => {
  // The reason may quote a server's message, a stored text or a file name: printable keeps it one inert line.
  process.stderr.write(`tolk: ${printable(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});

/** Command-line options of `npm run bench -- …`. */
const PARTS = ['floor', 'scenarios', 'exports', 'import', 'fleet'];
const USAGE = `usage: npm run bench -- [--quick] [--store sqlite|postgres] [--only floor|scenarios|exports|import|fleet] [--cpu-prof]
  --quick        every scenario for ~2 s, large project of 10,000 entries (a smoke run)
  --store S      only this store (default: sqlite, and postgres when BENCH_DATABASE_URL is set)
  --only P       only this part: floor-read and floor-write (not tolk: the least the quota count and a
                 durable save cost on this stack; alone, it seeds nothing), the load scenarios, the large exports,
                 import-large or fleet-mixed (PostgreSQL only) (repeatable)
  --cpu-prof     run each tolk server with --cpu-prof, each load scenario on a server of its own;
                 profiles go to bench/results/profiles/<store>/<scenario>.cpuprofile
environment: BENCH_DATABASE_URL=postgres://user@127.0.0.1:5432/db adds the PostgreSQL run`;

/** Parses argv; exits with the usage on anything unknown. */
export function parseOptions(argv, env = process.env) {
  const options = { quick: false, cpuProf: false, stores: null, only: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--cpu-prof') options.cpuProf = true;
    else if (arg === '--store' || arg.startsWith('--store=')) {
      const value = arg.includes('=') ? arg.slice('--store='.length) : argv[(i += 1)];
      if (value !== 'sqlite' && value !== 'postgres') fail(`--store must be sqlite or postgres, got "${value}"`);
      options.stores = [value];
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice('--only='.length) : argv[(i += 1)];
      if (!PARTS.includes(value)) fail(`--only takes ${PARTS.join(', ')}, got "${value}"`);
      (options.only ??= new Set()).add(value);
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else fail(`unknown option "${arg}"`);
  }
  const postgresUrl = env.BENCH_DATABASE_URL || null;
  options.stores ??= postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  if (options.stores.includes('postgres') && !postgresUrl) fail('--store postgres needs BENCH_DATABASE_URL');
  options.postgresUrl = postgresUrl;
  options.parts = options.only ?? new Set(PARTS);
  options.seconds = options.quick ? 2 : 10;
  options.warmupSeconds = options.quick ? 0.5 : 2;
  return options;
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

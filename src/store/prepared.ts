/**
 * Queries built and compiled once, then run with new values. Kysely builds and compiles a query on
 * every call: measured here at ~21 µs a point read on top of the ~11 µs SQLite takes to run it, and
 * a quarter of a request's CPU. The hot queries (every request's key check and quota charge, access
 * checks, point reads) go through `prepared` instead; everything else stays a plain Kysely call.
 * On the embedded store they also skip Kysely's executor where its route is fixed (a statement inside
 * a transaction, a SELECT outside one: sqlite/read-write-driver.ts `runAtOnce`); on PostgreSQL, inside
 * a transaction bound to its connection (postgres/pipelined-driver.ts `bindTransaction`).
 *
 * The builder is called once per dialect with stand-in values; each stand-in found among the
 * compiled parameters is then replaced by the real value at run time. So a builder must use its
 * arguments only as values (no branching on them, no arrays, no `sql.raw`): `prepared` checks that
 * every stand-in reached the compiled query as a value.
 */
import { createQueryId, type Compilable, type CompiledQuery, type QueryResult, type RawBuilder } from 'kysely';
import { namedStatements } from './named-statements.js';
import type { Db } from './schema.js';
import { runOnBoundConnection } from './postgres/pipelined-driver.js';
import { runAtOnce } from './sqlite/read-write-driver.js';
import { keptUntilWrite } from './sqlite/reader-results.js';

// A write's transaction binds itself (domain/shared/transaction.ts), so its prepared statements reach its connection straight.
export { bindTransaction } from './postgres/pipelined-driver.js';

/** Where a compiled parameter comes from: an argument by index, or a constant of the builder. */
type Slot = { argument: number } | { constant: unknown };

interface Template {
  sql: string;
  slots: Slot[];
  query: CompiledQuery['query'];
}

const isRaw = <R>(built: Buildable<R>): built is RawBuilder<R> => (built as { isRawBuilder?: boolean }).isRawBuilder === true;

const standIn = (index: number) => `\u0000prepared-argument-${index}\u0000`;

/** A query builder, or raw SQL (`sql\`…\``, which compiles against a database). */
type Buildable<R> = Compilable<R> | RawBuilder<R>;

function compileTemplate<A extends unknown[]>(db: Db, build: (db: Db, ...args: A) => Buildable<unknown>, arity: number): Template {
  const standIns = Array.from({ length: arity }, (_, i) => standIn(i));
  const built = build(db, ...(standIns as A));
  const compiled = isRaw(built) ? built.compile(db) : built.compile();
  const used = new Set<number>();
  const slots = compiled.parameters.map((value): Slot => {
    const index = typeof value === 'string' ? standIns.indexOf(value) : -1;
    if (index < 0) return { constant: value };
    used.add(index);
    return { argument: index };
  });
  if (used.size !== arity) throw new Error(`prepared query: ${arity - used.size} argument(s) did not reach the SQL as values`);
  if (!namedStatements.has(compiled.sql)) namedStatements.set(compiled.sql, `tolk_prepared_${namedStatements.size + 1}`);
  return { sql: compiled.sql, slots, query: compiled.query };
}

/**
 * A query compiled once per dialect. `arity` is the number of arguments `build` takes after `db`.
 * Returns a function running it on `db` (a Kysely instance or a transaction) with `args`.
 * `keptUntilWrite`: a SELECT whose result depends only on its arguments and the stored rows (no
 * clock among them), which the embedded store may answer from its last result until the next write.
 */
export function prepared<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Db, ...args: A) => Buildable<R>,
  { keptUntilWrite: kept = false } = {},
): (db: Db, ...args: A) => Promise<QueryResult<R>> {
  // One template per dialect (adapter class); a process may use both (the tests do).
  const templates = new Map<unknown, Template>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      template = compileTemplate(db, build as (db: Db, ...args: A) => Buildable<unknown>, arity);
      templates.set(dialect, template);
      if (kept) keptUntilWrite.add(template.sql);
    }
    const parameters = template.slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.constant));
    // The template's query node goes along: the embedded store's driver sends SELECTs to its reader by it.
    const compiled: CompiledQuery<R> = { sql: template.sql, parameters, query: template.query, queryId: createQueryId() };
    return runAtOnce<R>(db, compiled) ?? runOnBoundConnection<R>(db, compiled) ?? db.executeQuery<R>(compiled);
  };
}

/**
 * The bulk path's writers: each `write(batch)` inserts `{ table: rows[] }` (rows as arrays in the
 * column order of bulk-tables.mjs) in one transaction, with multi-row INSERT statements.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { INTEGER_COLUMNS, TABLE_ORDER, TABLES } from './bulk-tables.mjs';

/** Rows per SQLite INSERT: well under its 32,766 bound variables. */
const SQLITE_ROWS_PER_INSERT = 500;
/** Rows per PostgreSQL INSERT … SELECT FROM unnest(…): one array parameter per column. */
const POSTGRES_ROWS_PER_INSERT = 10_000;

function chunks(rows, size) {
  const out = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** better-sqlite3 on the file of a `sqlite:<path>` URL, with tolk's pragmas. */
export function openSqliteWriter(url) {
  const db = new SQLite(url.slice('sqlite:'.length), { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const statements = new Map();
  const statement = (table, rowCount) => {
    const key = `${table}:${rowCount}`;
    if (!statements.has(key)) {
      const columns = TABLES[table];
      const row = `(${columns.map(() => '?').join(', ')})`;
      statements.set(key, db.prepare(`insert into "${table}" (${columns.join(', ')}) values ${Array(rowCount).fill(row).join(', ')}`));
    }
    return statements.get(key);
  };
  const writeBatch = db.transaction((batch) => {
    for (const table of TABLE_ORDER) {
      for (const chunk of chunks(batch[table] ?? [], SQLITE_ROWS_PER_INSERT)) statement(table, chunk.length).run(chunk.flat());
    }
  });
  return {
    columns: async (table) =>
      db.pragma(`table_info("${table}")`).map((c) => ({ name: c.name, required: c.notnull === 1 && c.dflt_value === null })),
    write: async (batch) => writeBatch(batch),
    // A store grown through the API has had no ANALYZE either, so none here.
    finish: async () => {},
    close: async () => db.close(),
  };
}

/** node-postgres on a `postgres://…` URL (its `options=-c search_path=…` picks the bench schema). */
export async function openPostgresWriter(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const insert = async (table, rows) => {
    const columns = TABLES[table];
    const arrays = columns.map((column, i) => `$${i + 1}::${INTEGER_COLUMNS.has(column) ? 'integer' : 'text'}[]`);
    const text = `insert into "${table}" (${columns.join(', ')}) select * from unnest(${arrays.join(', ')})`;
    for (const chunk of chunks(rows, POSTGRES_ROWS_PER_INSERT)) {
      await client.query(text, columns.map((_, i) => chunk.map((row) => row[i])));
    }
  };
  return {
    columns: async (table) => {
      const { rows } = await client.query(
        `select column_name, is_nullable, column_default from information_schema.columns
          where table_schema = current_schema() and table_name = $1`,
        [table],
      );
      return rows.map((c) => ({ name: c.column_name, required: c.is_nullable === 'NO' && c.column_default === null }));
    },
    write: async (batch) => {
      await client.query('begin');
      try {
        for (const table of TABLE_ORDER) if (batch[table]?.length) await insert(table, batch[table]);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      }
    },
    // What autovacuum does shortly after a load this size; without it the first plans use empty-table statistics.
    finish: async () => {
      await client.query(`analyze ${TABLE_ORDER.map((table) => `"${table}"`).join(', ')}`);
    },
    close: async () => client.end(),
  };
}

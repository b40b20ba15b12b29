/**
 * The change log's size on disk (issue 32: "storage per million recorded changes"): its two tables and
 * their indexes, with the number of changes (a bundle's each counted). SQLite: the dbstat table of the store's file; PostgreSQL:
 * pg_total_relation_size in the run's schema.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

const LOG_TABLES = ['changes', 'change_sets'];
/** The changes the log holds: a row of `changes` or a bundle's (migration 015) languages, and the sets holding their one change. */
const COUNT_CHANGES = `select (select coalesce(sum(coalesce(bundled, 1)), 0) from changes) + (select count(*) from change_sets where target is not null) as n`;

export async function historyStorage(kind, url) {
  let bytes;
  let changes;
  if (kind === 'sqlite') {
    const db = new Database(url.replace(/^sqlite:/, ''), { readonly: true });
    try {
      changes = db.prepare(COUNT_CHANGES).get().n;
      const names = db.prepare(`select name from sqlite_master where tbl_name in (${LOG_TABLES.map(() => '?').join(', ')})`).all(...LOG_TABLES).map((row) => row.name);
      bytes = db.prepare(`select sum(pgsize) as bytes from dbstat where name in (${names.map(() => '?').join(', ')})`).get(...names).bytes;
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      changes = Number((await client.query(COUNT_CHANGES)).rows[0].n);
      bytes = Number((await client.query(`select ${LOG_TABLES.map((table) => `pg_total_relation_size('${table}')`).join(' + ')} as bytes`)).rows[0].bytes);
    } finally {
      await client.end();
    }
  }
  const mb = bytes / 1048576;
  return { changes, mb: Number(mb.toFixed(1)), mb_per_million: changes > 0 ? Number(((mb / changes) * 1e6).toFixed(1)) : null };
}

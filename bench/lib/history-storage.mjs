/**
 * The change log's size on disk (issue 32: "storage per million recorded changes"): its two tables and
 * their indexes, with the number of changes. SQLite: the dbstat table of the store's file; PostgreSQL:
 * pg_total_relation_size in the run's schema.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

const LOG_TABLES = ['changes', 'change_sets'];

export async function historyStorage(kind, url) {
  let bytes;
  let changes;
  if (kind === 'sqlite') {
    const db = new Database(url.replace(/^sqlite:/, ''), { readonly: true });
    try {
      changes = db.prepare('select count(*) as n from changes').get().n;
      const names = db.prepare(`select name from sqlite_master where tbl_name in (${LOG_TABLES.map(() => '?').join(', ')})`).all(...LOG_TABLES).map((row) => row.name);
      bytes = db.prepare(`select sum(pgsize) as bytes from dbstat where name in (${names.map(() => '?').join(', ')})`).get(...names).bytes;
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      changes = Number((await client.query('select count(*) as n from changes')).rows[0].n);
      bytes = Number((await client.query(`select ${LOG_TABLES.map((table) => `pg_total_relation_size('${table}')`).join(' + ')} as bytes`)).rows[0].bytes);
    } finally {
      await client.end();
    }
  }
  const mb = bytes / 1048576;
  return { changes, mb: Number(mb.toFixed(1)), mb_per_million: changes > 0 ? Number(((mb / changes) * 1e6).toFixed(1)) : null };
}

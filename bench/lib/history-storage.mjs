/**
 * The change log's size on disk (issue 32: "storage per million recorded changes"), by the two forms a
 * change is kept in, since they differ several times over (bench runs: 505–728 MB a million held, 137
 * bundled):
 * - held: a set of one change holds it in its own row (migration 014): a save's, a create's, a rename's.
 *   Its bytes are `change_sets` with its indexes, and `change_objects` (migration 017), where such sets are
 *   found by entry and by group (written every 4,096 versions of a project: the newest are not in it yet).
 * - in rows: a larger set's changes are rows of `changes`, an import's a bundle per entry and op
 *   (migration 015), each of its languages counted as a change.
 * SQLite: the dbstat table of the store's file; PostgreSQL: pg_total_relation_size (indexes and TOAST
 * included) in the run's schema.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

const FORMS = {
  held: { tables: ['change_sets', 'change_objects'], count: `select count(*) as n from change_sets where target is not null` },
  inRows: { tables: ['changes'], count: `select coalesce(sum(coalesce(bundled, 1)), 0) as n from changes` },
};

export async function historyStorage(kind, url) {
  const measured = {};
  if (kind === 'sqlite') {
    const db = new Database(url.replace(/^sqlite:/, ''), { readonly: true });
    try {
      for (const [form, { tables, count }] of Object.entries(FORMS)) {
        const names = db.prepare(`select name from sqlite_master where tbl_name in (${tables.map(() => '?').join(', ')})`).all(...tables).map((row) => row.name);
        const bytes = db.prepare(`select coalesce(sum(pgsize), 0) as bytes from dbstat where name in (${names.map(() => '?').join(', ')})`).get(...names).bytes;
        measured[form] = { changes: db.prepare(count).get().n, bytes };
      }
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const [form, { tables, count }] of Object.entries(FORMS)) {
        const bytes = Number((await client.query(`select ${tables.map((table) => `pg_total_relation_size('${table}')`).join(' + ')} as bytes`)).rows[0].bytes);
        measured[form] = { changes: Number((await client.query(count)).rows[0].n), bytes };
      }
    } finally {
      await client.end();
    }
  }
  const figures = ({ changes, bytes }) => {
    const mb = bytes / 1048576;
    return { changes, mb: Number(mb.toFixed(1)), mb_per_million: changes > 0 ? Number(((mb / changes) * 1e6).toFixed(1)) : null };
  };
  const all = { changes: measured.held.changes + measured.inRows.changes, bytes: measured.held.bytes + measured.inRows.bytes };
  return { ...figures(all), held: figures(measured.held), in_rows: figures(measured.inRows) };
}

/** The figures as one line of the report. */
export function describeHistoryStorage(history) {
  const form = (f) => `${f.changes.toLocaleString('en-US')} changes, ${f.mb} MB (${f.mb_per_million ?? '–'} MB per million)`;
  return `${form(history)}; held one a set (saves, creates): ${form(history.held)}; in rows (imports' bundles, larger sets): ${form(history.in_rows)}`;
}

/** The WAL of a SQLite file, as a test measures it. */
import SQLite from 'better-sqlite3';

/**
 * How many frames `write` adds to the WAL of the SQLite file at `path`, read by a connection of its
 * own (the file must be open elsewhere too, or closing this one would remove the WAL).
 */
export async function walFramesWrittenBy(path: string, write: () => Promise<unknown>): Promise<number> {
  const probe = new SQLite(path);
  try {
    // emptied: the next commit starts the WAL from its first frame
    probe.pragma('wal_checkpoint(TRUNCATE)');
    await write();
    return (probe.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
  } finally {
    probe.close();
  }
}

/**
 * The embedded store's files hold password and session hashes: tolk creates them readable by its own
 * user alone, whatever the umask. SQLite gives the -wal and -shm files the main file's mode. A file
 * or folder that exists already keeps the mode its owner gave it.
 */
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Creates the missing folders of `path` (0700) and the file itself (empty, 0600) unless it exists. */
export function createPrivateFile(path: string): void {
  createPrivateFolder(dirname(path));
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    // The umask only takes bits away, but an explicit mode says what is meant whatever it is.
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** Creates `folder` and its missing parents, each 0700 (umask-independent); existing ones are left as they are. */
function createPrivateFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  let created = first;
  chmodSync(created, 0o700);
  for (const part of relative(first, folder).split(sep).filter(Boolean)) {
    created = join(created, part);
    chmodSync(created, 0o700);
  }
}

/**
 * The files under a folder, for the layouts to sort (src/imports/folder-layout.ts), found within bounds:
 * a push pointed at the wrong folder (an app's root, a home directory) must neither take minutes nor
 * read an installed package's files. Every place not looked into is said, with why: `node_modules` and
 * hidden folders (`.git`, `.dart_tool`) are not entered, symbolic links not followed, and the walk stops
 * at WALK_LIMITS.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { FileNotRead } from '../../imports/folder-layout.js';

export const WALK_LIMITS = {
  /** files listed: an archive holds at most 10,000 members (ARCHIVE_LIMITS) */
  files: 10_000,
  /** folders below the one walked: `<lng>/components/forms/dialog.json` is 3 */
  depth: 8,
};

export interface FolderWalk {
  /** the files found, `/`-separated, relative to the folder walked, in the walk's order */
  readonly paths: string[];
  /** the places not looked into, with why (a folder's path ends in `/`) */
  readonly notes: FileNotRead[];
}

/** Folders whose files are never an app's own translations, said by name. */
const NOT_ENTERED: Record<string, string> = {
  node_modules: 'installed packages: not looked into',
  '.git': "git's own files: not looked into",
};

/** Lists the files under `dir` within `limits`; throws a one-line reason when `dir` itself cannot be read. */
export function walkFolder(dir: string, limits = WALK_LIMITS): FolderWalk {
  const walk: FolderWalk = { paths: [], notes: [] };
  const list = (relative: string): Dirent[] => {
    try {
      return readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (relative === '') throw new Error(`cannot read the directory ${dir}: ${reason}`);
      walk.notes.push({ path: `${relative}/`, why: `cannot be read (${reason})` });
      return [];
    }
  };
  const visit = (relative: string, depth: number): boolean => {
    for (const entry of list(relative)) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) walk.notes.push({ path, why: 'a symbolic link: not followed' });
      else if (entry.isDirectory()) {
        const why = NOT_ENTERED[entry.name] ?? (entry.name.startsWith('.') ? 'a hidden folder: not looked into' : undefined);
        if (why) walk.notes.push({ path: `${path}/`, why });
        else if (depth >= limits.depth) walk.notes.push({ path: `${path}/`, why: `more than ${limits.depth} folders deep: not looked into` });
        else if (!visit(path, depth + 1)) return false;
      } else if (!entry.isFile()) walk.notes.push({ path, why: 'not a regular file' });
      else if (walk.paths.length >= limits.files) {
        walk.notes.push({ path: relative === '' ? './' : `${relative}/`, why: `the walk stops at ${limits.files.toLocaleString('en')} files: this and what follows not looked into` });
        return false;
      } else walk.paths.push(path);
    }
    return true;
  };
  visit('', 0);
  return walk;
}

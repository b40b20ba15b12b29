/**
 * Writes a pull's files into the output directory as one step that either happens or does not:
 * every file goes to a temporary sibling first, and only when all of them are on disk are they
 * renamed over their targets (a rename within a directory is atomic). A failure before that point
 * removes the temporary files and leaves the files as they were (new parent directories may stay, empty).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { PulledFile } from './unpack.js';

/** The target of a relative name, refused if it would land outside `out` (a second guard after unpack). */
function targetPath(out: string, name: string): string {
  const target = resolve(out, name);
  const inside = relative(out, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new Error(`refused to write "${name}": it is outside ${out}`);
  }
  return target;
}

async function kindOf(path: string): Promise<'missing' | 'file' | 'directory' | 'other'> {
  try {
    const stats = await lstat(path);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/**
 * Refuses, before anything is written, what would make a rename fail halfway or lead outside `out`:
 * the same name twice, a name that another uses as a directory, a target that is a directory or
 * link, or a parent directory that is a link or a file.
 */
async function checkTargets(out: string, names: string[]): Promise<void> {
  const taken = new Set<string>();
  for (const name of names) {
    if (taken.has(name)) throw new Error(`refused to write "${name}": it appears twice`);
    taken.add(name);
  }
  for (const name of names) {
    const parts = name.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('/');
      if (taken.has(parent)) throw new Error(`refused to write "${name}": "${parent}" is also a file`);
      if (!['missing', 'directory'].includes(await kindOf(resolve(out, parent)))) throw new Error(`refused to write "${name}": "${parent}" is not a directory`);
    }
    if (!['missing', 'file'].includes(await kindOf(targetPath(out, name)))) throw new Error(`refused to write "${name}": something other than a file is there`);
  }
}

/** Writes all files under `out` (created if missing); returns their names in a stable order. */
export async function writeFilesAtomically(out: string, files: PulledFile[]): Promise<string[]> {
  const suffix = `.tolk-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const staged: { temp: string; target: string }[] = [];
  await checkTargets(out, files.map((file) => file.name));
  try {
    for (const file of files) {
      const target = targetPath(out, file.name);
      await mkdir(dirname(target), { recursive: true });
      const temp = target + suffix;
      staged.push({ temp, target });
      await writeFile(temp, file.content, { flag: 'wx' });
    }
    for (const { temp, target } of staged) await rename(temp, target);
  } catch (error) {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    throw error;
  }
  return files.map((file) => file.name).sort();
}

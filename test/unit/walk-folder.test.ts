/**
 * `tolk push`'s walk of a folder (src/cli/push/walk-folder.ts): bounded in files and depth, and every
 * place not looked into said with why.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkFolder } from '../../src/cli/push/walk-folder.js';

function folder(paths: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-walk-'));
  for (const path of paths) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), '{}');
  }
  return dir;
}

describe('walkFolder', () => {
  it('goes no deeper than its depth limit, naming the folder it did not enter', () => {
    const walk = walkFolder(folder(['en/a.json', 'en/x/b.json', 'en/x/y/c.json']), { files: 100, depth: 2 });
    expect(walk.paths).toEqual(['en/a.json', 'en/x/b.json']);
    expect(walk.notes).toEqual([{ path: 'en/x/y/', why: 'more than 2 folders deep: not looked into' }]);
  });

  it('stops at its file limit and says where', () => {
    const walk = walkFolder(folder(['a.json', 'b.json', 'c/d.json', 'c/e.json']), { files: 3, depth: 8 });
    expect(walk.paths).toEqual(['a.json', 'b.json', 'c/d.json']);
    expect(walk.notes).toEqual([{ path: 'c/', why: 'the walk stops at 3 files: this and what follows not looked into' }]);
  });

  it('throws a one-line reason for a folder it cannot read', () => {
    expect(() => walkFolder(join(tmpdir(), 'tolk-walk-missing-folder'))).toThrow(/^cannot read the directory .*: ENOENT$/);
  });
});

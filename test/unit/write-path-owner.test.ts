/**
 * One module owns every content write (issue 32): no file of src/ but store/content-writes/ (and the
 * frozen migrations) writes groups, entries, translations or the change log, so every such write goes
 * through the path that records it. A new write elsewhere fails here, naming the file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const OWNERS = ['store/content-writes/', 'store/migrations/'];
const CONTENT = '(groups|entries|translations|changes|change_sets)';
/** Kysely's writes and raw SQL's, of those tables. */
const WRITES = [
  new RegExp(`\\b(insertInto|updateTable|deleteFrom)\\(\\s*'${CONTENT}'`),
  new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+${CONTENT}\\b`, 'i'),
];

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((item) => {
    const path = join(directory, item.name);
    if (item.isDirectory()) return sources(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the write path', () => {
  it('is the only writer of groups, entries, translations and the change log', () => {
    const found: string[] = [];
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const name = relative(SRC, file).replaceAll('\\', '/');
      if (OWNERS.some((owner) => name.startsWith(owner))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // a comment may say "update entries"; code may not
          const code = line.replace(/^\s*(\*|\/\/).*$/, '').replace(/\/\/.*$/, '');
          if (WRITES.some((pattern) => pattern.test(code))) found.push(`src/${name}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('would see a write where one does not belong', () => {
    expect(WRITES.some((pattern) => pattern.test("await db.deleteFrom('translations').where('id', '=', id)"))).toBe(true);
    expect(WRITES.some((pattern) => pattern.test('await sql`update entries set base_term = ${text}`'))).toBe(true);
    expect(WRITES.some((pattern) => pattern.test("db.selectFrom('entries')"))).toBe(false);
  });
});

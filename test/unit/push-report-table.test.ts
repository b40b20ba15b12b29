/**
 * `tolk push`'s tables (src/cli/push/report-table.ts): the count over each list is the true count, not the
 * length of the list the server caps at 1,000 (CONTRACT, "Import": each list capped, with its total count).
 */
import { describe, expect, it } from 'vitest';
import { refusalTable, reportTable, type ImportReport } from '../../src/cli/push/report-table.js';

const refusedItems = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `Key number ${i}`, language: 'en', code: 'ERR_VALIDATION', message: 'must be camelCase' }));

const report = (refused: number, listed: number): ImportReport => ({
  dryRun: true,
  groups: { created: 0 },
  entries: { created: 554, updated: 0, unchanged: 0 },
  translations: { created: 0, updated: 0, unchanged: 0 },
  conflicts: [],
  refused: refusedItems(listed),
  warnings: [],
  files: [{ name: 'en', language: 'en', texts: 554 }],
  totals: { conflicts: 0, refused, warnings: 0, files: 1 },
  changeSetId: null,
});

const files = { read: [{ path: 'en.json', name: 'en', language: 'en', texts: 554 }], notRead: [] };

describe('the push report table', () => {
  it('counts a capped list by its total and says how many are listed', () => {
    const text = reportTable(report(1527, 1000), files);
    expect(text).toContain('\nRefused (1,527; the first 1,000 listed)\n');
    expect(text).toContain('\n… and 1,477 more (--json lists the first 1,000)');
    expect(text).not.toMatch(/Refused \(1,?000\)/);
  });

  it('counts a list the server gives whole by its length', () => {
    const text = reportTable(report(120, 120), files);
    expect(text).toContain('\nRefused (120)\n');
    expect(text).toContain('\n… and 70 more (--json lists them all)');
    expect(reportTable(report(0, 0), files)).not.toContain('Refused');
  });

  it("never counts a 400's capped details as the number refused: the message above them gives it", () => {
    const details = refusedItems(1000).map((item) => ({ path: `en:${item.key}`, message: item.message }));
    const text = refusalTable('1527 item(s) refused, nothing was imported', details);
    expect(text).toContain('\nRefused (the first 1,000 listed)\n');
    expect(text).toContain('\n… and more (--json lists the first 1,000)');
    expect(text).not.toContain('Refused (1,000)');
    expect(refusalTable('3 item(s) refused', details.slice(0, 3))).toContain('\nRefused (3)\n');
  });
});

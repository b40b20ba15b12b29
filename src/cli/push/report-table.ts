/**
 * The import report as a person reads it: the counts, the files read and not read, then each list as a
 * table of key, language and text. Every value in it is the server's or a file's name, so each goes
 * through printable() (terminal-text.ts).
 */
import { REPORT_LIST_CAP, type ImportReport } from '../../domain/imports/import-project.js';
import type { FilesAccount } from '../../imports/files-account.js';
import type { FileNotRead } from '../../imports/folder-layout.js';
import { printable } from '../terminal-text.js';

export type { ImportReport };

/** Rows a table shows before "… and N more" (the report itself lists up to REPORT_LIST_CAP). */
const SHOWN = 50;
const WIDTH = 60;

/** A cell: one line of printable text, cut to `width` (`tolk history`'s tables' too). */
export const cut = (text: string, width = WIDTH) => {
  const line = printable(String(text).replace(/\s+/g, ' '));
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
};

/** A heading's count, with thousands separators. */
const figure = (n: number) => printable(n.toLocaleString('en'));
/** A count of the summary, as the server sent it (a number, unless the server is not tolk). */
const count = (n: number) => printable(String(n));

/**
 * A list as a table under its count. `total` is the true count (the report's totals), of which the
 * server lists `rows` (at most REPORT_LIST_CAP); undefined when only the list is known (a 400's
 * details), which then may stop at the cap.
 */
function table(title: string, headers: string[], rows: string[][], total: number | undefined): string[] {
  const listed = rows.length;
  if ((total ?? listed) === 0) return [];
  const capped = total === undefined ? listed >= REPORT_LIST_CAP : listed < total;
  const count = total === undefined ? '' : `${figure(total)}; `;
  const heading = capped ? `${title} (${count}the first ${figure(listed)} listed)` : `${title} (${figure(total ?? listed)})`;
  const shown = Math.min(SHOWN, listed);
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.slice(0, shown).map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  const lines = ['', heading, line(headers), line(widths.map((width) => '-'.repeat(width)))];
  for (const row of rows.slice(0, shown)) lines.push(line(row));
  const more = total === undefined && capped ? 'more' : `${figure((total ?? listed) - shown)} more`;
  if (listed > shown) lines.push(`… and ${more} (--json lists ${capped ? `the first ${figure(listed)}` : 'them all'})`);
  return lines;
}

/** The files not read as a table, under their count. */
export function notReadTable(notRead: readonly FileNotRead[]): string[] {
  const name = (file: FileNotRead) => (file.language === undefined ? file.path : `${file.path} (${file.language})`);
  return table('Files not read', ['file', 'why'], notRead.map((file) => [cut(name(file), 50), cut(file.why, 100)]), notRead.length);
}

/** The import's change set, so that it is undone with one command; none in a dry run, a write of nothing, or from a server without history. */
const changeSetLine = (id: string | null | undefined): string[] =>
  typeof id === 'string' ? [`Change set: ${printable(id)} (undo with: tolk revert --change-set ${printable(id)})`] : [];

/** The translations reviewed (--mark-reviewed: the server says how many; an older one does not). */
const reviewedPart = (reviewed: number | undefined): string => (reviewed === undefined ? '' : `, ${count(reviewed)} reviewed`);

/** The report as lines of text; `files`, what became of each file found (files-account.ts). */
export function reportTable(report: ImportReport, files: FilesAccount): string {
  const { groups, entries, translations } = report;
  // A server older than the report's `files` lists none: then nothing is said of the files it read.
  const known = report.files !== undefined;
  const from = known ? ` from ${figure(new Set(files.read.map((file) => file.path)).size)} file(s)` : '';
  const unlisted = known ? Math.max(0, (report.totals.files ?? 0) - report.files.length) : 0;
  const rows = files.read.map((file) => [cut(file.path, 50), cut(file.language, 20), count(file.texts)]);
  return [
    `${report.dryRun ? 'Dry run (nothing written)' : 'Imported'}${from}`,
    `  groups        ${count(groups.created)} new`,
    `  entries       ${count(entries.created)} new, ${count(entries.updated)} updated, ${count(entries.unchanged)} unchanged`,
    `  translations  ${count(translations.created)} new, ${count(translations.updated)} updated, ${count(translations.unchanged)} unchanged${reviewedPart(translations.reviewed)}`,
    ...changeSetLine(report.changeSetId),
    ...(known ? table('Files read', ['file', 'language', 'texts'], rows, rows.length + unlisted) : []),
    ...notReadTable(files.notRead),
    ...table('Conflicts: stored texts kept (--mode overwrite replaces them)', ['key', 'language', 'stored', 'imported'],
      report.conflicts.map((item) => [cut(item.key, 40), cut(item.language, 20), cut(item.stored, 30), cut(item.imported, 30)]), report.totals.conflicts),
    ...table('Refused', ['key', 'language', 'why'], report.refused.map((item) => [cut(item.key, 40), cut(item.language, 20), cut(item.message, 90)]), report.totals.refused),
    ...table('Warnings', ['key', 'language', 'what'], report.warnings.map((item) => [cut(item.key, 40), cut(item.language, 20), cut(item.message, 90)]), report.totals.warnings),
  ].join('\n');
}

/** A 400's details (every refused item up to the cap, nothing written; the message gives the count) as a table. */
export function refusalTable(message: string, details: readonly { path: string; message: string }[]): string {
  return [`Nothing imported: ${printable(message)}`, ...table('Refused', ['language:key', 'why'], details.map((item) => [cut(item.path, 50), cut(item.message, 90)]), undefined)].join('\n');
}

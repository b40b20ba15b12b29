/**
 * What became of each file of a folder once the server answered (CONTRACT "Import": nothing is skipped
 * silently): the report's `files` mapped back to the files' paths, and every file not taken with why:
 * the layout's own reasons (folder-layout.ts), a file sent that the server did not read (the report's
 * item naming it says why), and a file read whose texts were not taken as a whole (a language the
 * project lacks: an item with the file's name as its key and no language). Pure: `tolk push` and the
 * web app's Import dialog print the same lists.
 */
import type { FileNotRead, FolderLayout } from './folder-layout.js';

interface ReportItem {
  readonly key: string;
  readonly language: string;
  readonly message: string;
}

/** The parts of an import report (the 200 answer) that name files. */
export interface FilesReport {
  /** absent from a server older than the list */
  readonly files?: readonly { readonly name: string; readonly language: string; readonly texts: number }[];
  readonly totals?: { readonly files?: number };
  readonly refused: readonly ReportItem[];
  readonly warnings: readonly ReportItem[];
}

export interface FileTaken {
  readonly path: string;
  /** the member's name or language key the report gives */
  readonly name: string;
  readonly language: string;
  readonly texts: number;
}

export interface FilesAccount {
  readonly read: FileTaken[];
  readonly notRead: FileNotRead[];
}

/** The path of the file a report's file name came from (the name itself when no file was sent as it). */
export function pathOfName(layout: FolderLayout, name: string): string {
  if (layout.body === 'document') return layout.read[0]?.path ?? name;
  return layout.read.find((file) => file.as === name)?.path ?? name;
}

/** The files read and not read, once the server's report is in. */
export function accountFiles(layout: FolderLayout, report: FilesReport): FilesAccount {
  const items = [...report.refused, ...report.warnings];
  const files = report.files ?? [];
  const account: FilesAccount = { read: [], notRead: [...layout.notRead] };
  for (const file of files) {
    const path = pathOfName(layout, file.name);
    const whole = items.find((item) => item.key === file.name && item.language === '');
    if (whole) account.notRead.push({ path, language: file.language, why: whole.message });
    else account.read.push({ path, name: file.name, language: file.language, texts: file.texts });
  }
  // Which files sent the server did not read is known only from a list it gave whole.
  const complete = report.files !== undefined && (report.totals?.files ?? files.length) === files.length;
  if (!complete) return account;
  const names = new Set(files.map((file) => file.name));
  for (const sent of layout.read) {
    if (layout.body === 'document' ? files.length > 0 : names.has(sent.as)) continue;
    // An archive member is named by its path; a language of a JSON body by its key, or by its language
    // when refused as a whole; a whole document by the key '' (the body's own refusal).
    const item = items.find((candidate) => candidate.key === sent.as || (layout.body === 'languages' && candidate.key === '' && candidate.language === sent.as));
    account.notRead.push({ path: sent.path, why: item?.message ?? 'the server read no text from it' });
  }
  return account;
}

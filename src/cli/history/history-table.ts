/**
 * The history as a person reads it: a project's change sets (version, when, who, source, summary, and
 * whether it was reverted), or one entry's changes with what each changed. Every value printed is the
 * server's, so each goes through printable() (terminal-text.ts).
 */
import type { Static } from 'typebox';
import type { Change, ChangeSet } from '../../http/schemas/history.js';
import { cut } from '../push/report-table.js';
import { printable } from '../terminal-text.js';

export type ChangeSetItem = Static<typeof ChangeSet>;
export type ChangeItem = Static<typeof Change>;

/** What was fetched: the items (newest first) and how many the server has in all. */
export interface Listing<T> {
  total: number;
  result: T[];
}

const figure = (n: number) => n.toLocaleString('en');

/** `2026-11-27 15:13` (UTC, as the server keeps it). */
const when = (iso: string) => cut(iso.replace('T', ' ').slice(0, 16), 16);
const who = (user: ChangeSetItem['user']) => cut(`${user.firstName} ${user.lastName}`.trim() || user.id, 30);

function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

/** The heading: what is listed, and how much of it. */
function heading(what: string, listing: Listing<unknown>): string {
  const listed = listing.result.length;
  return listed < listing.total ? `${what} (${figure(listing.total)}; the newest ${figure(listed)} listed)` : `${what} (${figure(listing.total)})`;
}

/** A change set's summary: `+1 ~2 -0` (created, updated, deleted). */
const summary = ({ created, updated, deleted }: ChangeSetItem['summary']) => `+${created} ~${updated} -${deleted}`;

function reverted(set: ChangeSetItem): string {
  const parts = [set.revertedBy ? `reverted by ${set.revertedBy}` : '', set.revertOf ? `reverts ${set.revertOf}` : ''].filter(Boolean);
  return cut(parts.join('; ') || '-', 80);
}

/** A project's change sets as a table, newest first. */
export function changeSetTable(project: string, listing: Listing<ChangeSetItem>): string {
  if (listing.total === 0) return `No changes to project ${cut(project, 60)} yet.`;
  const rows = listing.result.map((set) => [String(set.version), when(set.createdAt), who(set.user), cut(set.source, 8), summary(set.summary), cut(set.id, 40), reverted(set)]);
  return [heading(`Change sets of project ${cut(project, 60)}`, listing), ...table(['version', 'when (UTC)', 'who', 'source', 'changes', 'id', 'reverted'], rows)].join('\n');
}

/** A quoted text, on one line and cut. */
const quoted = (value: unknown, width = 40) => (value === null || value === undefined ? '(none)' : `"${cut(String(value), width)}"`);

/** The fields an update changed, `name: "a" → "b"`. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  return names.map((name) => `${printable(name)}: ${shown(before[name])} → ${shown(after[name])}`).join('; ');
}

const shown = (value: unknown) => (typeof value === 'string' || value === null ? quoted(value, 30) : cut(JSON.stringify(value) ?? '', 30));

/** What a change did, in a few words: a translation's text, an entry's base term, an update's fields. */
export function changeText(change: ChangeItem): string {
  const before = (change.before ?? {}) as Record<string, unknown>;
  const after = (change.after ?? {}) as Record<string, unknown>;
  const main = change.target === 'translation' ? 'text' : change.target === 'entry' ? 'baseTerm' : change.target === 'group' ? 'displayName' : 'name';
  if (change.op === 'create') return quoted(after[main]);
  if (change.op === 'delete') return `deleted ${quoted(before[main])}`;
  if (change.target === 'translation') return translationChangeText(before, after);
  return cut(changedFields(before, after) || '(no field differs)', 120);
}

/** A translation's update: its text, or else what review did to it (CONTRACT "Review"). */
function translationChangeText(before: Record<string, unknown>, after: Record<string, unknown>): string {
  if (before.text !== after.text) return `${quoted(before.text)} → ${quoted(after.text)}`;
  const reviewMoved = JSON.stringify(before.review ?? null) !== JSON.stringify(after.review ?? null);
  if (before.state !== after.state || reviewMoved) {
    if (!after.review) return 'review withdrawn';
    return before.state === 'reviewed' ? 'reviewed again' : 'reviewed';
  }
  if (before.outdated === true && after.outdated !== true) return 'confirmed against the new base term';
  return '(no field differs)';
}

/** One entry's changes as a table, newest first. */
export function entryChangeTable(entry: string, listing: Listing<ChangeItem>): string {
  if (listing.total === 0) return `No changes of entry ${cut(entry, 60)}.`;
  const key = listing.result[0]?.key;
  const rows = listing.result.map((change) => [
    String(change.version),
    when(change.createdAt),
    who(change.user),
    cut(change.source, 8),
    cut(`${change.target} ${change.op}`, 20),
    cut(change.language ?? '', 12),
    changeText(change),
  ]);
  const what = `Changes of entry ${cut(entry, 60)}${key ? ` (${cut(key, 80)})` : ''}`;
  return [heading(what, listing), ...table(['version', 'when (UTC)', 'who', 'source', 'what', 'language', 'change'], rows)].join('\n');
}

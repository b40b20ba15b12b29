/** `tolk history --entry`: what a translation change did, in words, for every kind of review change (CONTRACT "Review"). */
import { describe, expect, it } from 'vitest';
import { changeText, type ChangeItem } from '../../src/cli/history/history-table.js';

const review = { text: 'Hallo', userId: 'u1', at: '2026-11-28T10:00:00.000Z', revision: 0 };
const translated = { text: 'Hallo', state: 'translated', outdated: false };
const reviewed = { text: 'Hallo', state: 'reviewed', outdated: false, review };

const update = (before: object, after: object) =>
  ({ target: 'translation', op: 'update', before, after }) as unknown as ChangeItem;

describe('a translation change in the history table', () => {
  it('shows a new text as before → after', () => {
    expect(changeText(update(reviewed, { text: 'Servus', state: 'translated', outdated: false, review }))).toBe('"Hallo" → "Servus"');
  });
  it('names a review, a review again, a withdrawn review and a confirm', () => {
    expect(changeText(update(translated, reviewed))).toBe('reviewed');
    expect(changeText(update({ ...reviewed, outdated: true }, { ...reviewed, review: { ...review, at: '2026-11-29T10:00:00.000Z', revision: 1 } }))).toBe('reviewed again');
    expect(changeText(update(reviewed, translated))).toBe('review withdrawn');
    // a later save kept the review (state translated): withdrawing it moves only the review
    expect(changeText(update({ ...translated, review }, translated))).toBe('review withdrawn');
    expect(changeText(update({ ...translated, outdated: true }, translated))).toBe('confirmed against the new base term');
  });
});

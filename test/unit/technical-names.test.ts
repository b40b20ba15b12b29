/** The naming rules (technical-names.ts): `/` only in a top-level group's name under free, each part a free name. */
import { describe, expect, it } from 'vitest';
import { nameProblem } from '../../src/names/technical-names.js';

describe('a top-level group name with "/" (an i18next namespace in sub-folders)', () => {
  it.each(['components/dialog', 'a/b/c/d', 'layout/modals/about', 'Pages_2/home-page'])('free takes %j at the top level', (name) => {
    expect(nameProblem(name, 'group', 'free', { topLevel: true })).toBeUndefined();
  });

  it.each([
    ['/dialog', /may not start or end with "\/" or hold "\/\/"/],
    ['components/', /may not start or end with "\/"/],
    ['a//b', /hold "\/\/"/],
    ['components/.hidden', /has the part "\.hidden", which may hold only ASCII letters/],
    ['components/../etc', /has the part "\.\.", which may hold only/],
    ['a/constructor', /has the part "constructor", which "constructor" is reserved/],
    ['items_one/x', /has the part "items_one", which may not end in an i18next plural suffix/],
    ['a b/c', /has the part "a b"/],
    [`${'a'.repeat(60)}/${'b'.repeat(40)}`, /must be 1–100 characters/],
  ])('free refuses %j at the top level', (name, why) => {
    expect(nameProblem(name, 'group', 'free', { topLevel: true })).toMatch(why);
  });

  it('nowhere else: not below the top level, not in an entry, never under camelCase', () => {
    expect(nameProblem('components/dialog', 'group', 'free')).toMatch(/may hold "\/" only at the top level/);
    expect(nameProblem('components/dialog', 'group', 'free', { topLevel: false })).toMatch(/only at the top level/);
    expect(nameProblem('components/dialog', 'entry', 'free', { topLevel: true })).toMatch(/may hold only ASCII letters, digits, _ and -/);
    expect(nameProblem('components/dialog', 'group', 'camelCase', { topLevel: true })).toMatch(/must be camelCase/);
  });

  it('leaves the other rules as they were', () => {
    expect(nameProblem('home-page', 'group', 'free', { topLevel: true })).toBeUndefined();
    expect(nameProblem('items_one', 'group', 'free', { topLevel: true })).toMatch(/plural suffix/);
    expect(nameProblem('home', 'group', 'camelCase', { topLevel: true })).toBeUndefined();
  });
});

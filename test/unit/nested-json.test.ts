import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NestedJsonWriter } from '../../src/exports/nested-json.js';

type Tree = { [name: string]: string | Tree };

/** Writes `tree` member by member, as an export does along its outline. */
function written(tree: Tree, pretty: boolean, depth: number): string {
  let text = '';
  const json = new NestedJsonWriter((piece) => (text += piece), pretty, depth);
  const walk = (node: Tree) => {
    for (const [name, value] of Object.entries(node)) {
      if (typeof value === 'string') json.text(name, value);
      else {
        json.open(name);
        walk(value);
        json.close();
      }
    }
  };
  json.open();
  walk(tree);
  json.close();
  return text;
}

const name = fc.string({ unit: 'binary', maxLength: 6 }).filter((key) => !/^\d+$/.test(key)); // integer-like keys are reordered by JS objects
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.dictionary(name, fc.oneof({ depthSize: 'small' }, fc.string({ unit: 'binary' }), tie('tree')), { maxKeys: 5 }),
})).tree;

describe('NestedJsonWriter', () => {
  it('writes what JSON.stringify writes, compact and indented, with empty objects as {}', () => {
    fc.assert(
      fc.property(tree, (value) => {
        expect(written(value, false, 0)).toBe(JSON.stringify(value));
        expect(written(value, true, 0)).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('indents as if nested `depth` levels deep', () => {
    const value = { en: { a: { b: 'x', c: {} }, d: 'y' } };
    const inner = written(value.en, true, 1);
    expect(`{\n  "en": ${inner}\n}`).toBe(JSON.stringify(value, null, 2));
  });

  it('refuses a member or a close without an open object', () => {
    const json = new NestedJsonWriter(() => {}, false);
    expect(() => json.text('a', 'b')).toThrow(/open object/);
    expect(() => json.close()).toThrow(/no open object/);
  });
});

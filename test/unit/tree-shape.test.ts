import { describe, expect, it } from 'vitest';
import { treeShapeProblems, type ParentLink } from '../../src/domain/integrity/tree-shape.js';

/** `a>b` means group a's parent is b; a name alone is a top-level group. */
const links = (...specs: string[]): ParentLink[] =>
  specs.map((spec) => {
    const [id, parent] = spec.split('>');
    return { id: id!, parent_id: parent ?? null };
  });

describe('treeShapeProblems', () => {
  it('accepts a chain exactly as deep as the limit', () => {
    expect(treeShapeProblems(links('g1', 'g2>g1', 'g3>g2'), 3)).toEqual([]);
  });

  it('reports each group deeper than the limit, with its depth', () => {
    expect(treeShapeProblems(links('g1', 'g2>g1', 'g3>g2', 'g4>g3'), 2)).toEqual([
      { check: 'group-depth', message: 'group g3 has depth 3, more than 2' },
      { check: 'group-depth', message: 'group g4 has depth 4, more than 2' },
    ]);
  });

  it('reports a ring once, however many groups lead into it, and no depth for them', () => {
    const problems = treeShapeProblems(links('tail>a', 'a>b', 'b>c', 'c>a', 'root'), 10);
    expect(problems).toEqual([{ check: 'group-cycle', message: 'groups form a cycle: a → b → c → a' }]);
  });

  it('reports a group that is its own parent', () => {
    expect(treeShapeProblems(links('self>self'), 10)).toEqual([{ check: 'group-cycle', message: 'groups form a cycle: self → self' }]);
  });

  it('stops at a missing parent: the dangling link is another check\'s to report', () => {
    expect(treeShapeProblems(links('g2>gone', 'g3>g2'), 2)).toEqual([]);
  });
});

/**
 * A word diff of two texts for the History: the words (and the spaces between them) both share, and
 * those only one has, found by a longest common subsequence over words. Texts are at most 10,000
 * characters; past a bound on the table's size the diff is the whole text replaced, which is still true.
 */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Cells of the LCS table beyond which the diff says "all replaced" (about 2,000 × 2,000 words). */
const MAX_CELLS = 4_000_000;

/** Words and the whitespace runs between them, in order: joined they give the text back. */
export function wordsOf(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** How `from` becomes `to`: removed parts are `from`'s only, added parts `to`'s only; neighbours of a kind merged. */
export function wordDiff(from: string, to: string): DiffPart[] {
  const a = wordsOf(from);
  const b = wordsOf(to);
  if (a.length * b.length > MAX_CELLS) return merge([...a.map((text) => ({ kind: 'removed' as const, text })), ...b.map((text) => ({ kind: 'added' as const, text }))]);
  // lengths[i][j]: the LCS of a[i..] and b[j..], one flat array
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) parts.push({ kind: 'removed', text: a[i++]! });
    else parts.push({ kind: 'added', text: b[j++]! });
  }
  while (i < a.length) parts.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) parts.push({ kind: 'added', text: b[j++]! });
  return merge(parts);
}

/** Neighbouring parts of one kind as one. */
function merge(parts: DiffPart[]): DiffPart[] {
  const merged: DiffPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (last && last.kind === part.kind) last.text += part.text;
    else merged.push({ ...part });
  }
  return merged;
}

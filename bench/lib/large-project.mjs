/**
 * The large project, written through the bulk path (see README): a 3-level group tree, entries in the
 * leaf groups, the base language plus 9 translation languages, 80 % of (entry, language) pairs translated,
 * 70 % of those reviewed (one in ten of them edited since: its reviewed text is another one).
 * Rows are exactly what tolk itself writes: CUID2 ids, ISO 8601 UTC text timestamps, base_term_key =
 * base_term lower-cased in JS, translation_languages as JSON text, content_version 1.
 */
import { checkColumns, TABLES } from './bulk-tables.mjs';
import { openPostgresWriter, openSqliteWriter } from './bulk-writers.mjs';
import { IdPool } from './id-pool.mjs';

export const LARGE_BASE_LANGUAGE = 'en';
export const LARGE_LANGUAGES = ['de', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt-BR', 'sv'];
const TRANSLATED_SHARE = 0.8;
/**
 * Of the translations, the share that keeps a review, and of those the share edited since (the text
 * that ships under `release=reviewed` is then not the current one): the `release=reviewed` export reads
 * most texts from the reviewed column, and falls back for the rest. Written in the same insert as the
 * translations (no second pass), drawn from a generator of their own, so that which pairs are
 * translated stays what it was before reviews existed.
 */
const REVIEWED_SHARE = 0.7;
const EDITED_SINCE_REVIEW_SHARE = 0.1;
const ENTRIES_PER_LEAF = 100;
/** Leaf groups per transaction (2,000 entries and ~14,400 translations). */
const LEAVES_PER_BATCH = 20;
const WORDS = ['Save', 'Cancel', 'Open', 'Delete', 'Share', 'Search', 'Settings', 'Profile', 'Checkout', 'Welcome'];
const EPOCH = Date.parse('2024-01-01T00:00:00.000Z');

/** Fan-out per level: 10 × 10 × 10 leaves × 100 = 100,000 entries; --quick 4 × 5 × 5 × 100 = 10,000. */
export function largeLayout(quick) {
  return { fanout: quick ? [4, 5, 5] : [10, 10, 10], entriesPerLeaf: ENTRIES_PER_LEAF };
}

/** A small deterministic PRNG (mulberry32), so every run seeds the same coverage. */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LEVEL_NAMES = [['area', 'Area'], ['screen', 'Screen'], ['part', 'Part']];

/** The group rows of the tree, parents before children, and the leaves with their name paths. */
async function groupTree(ids, projectId, fanout, now) {
  const rows = [];
  let level = [{ id: null, path: [] }];
  for (const [depth, count] of fanout.entries()) {
    const next = [];
    for (const parent of level) {
      const groupIds = await ids.take(count);
      for (let i = 0; i < count; i += 1) {
        const [technical, display] = LEVEL_NAMES[depth];
        rows.push([groupIds[i], projectId, parent.id, `${technical}${i}`, `${display} ${i}`, now]);
        next.push({ id: groupIds[i], path: [...parent.path, `${technical}${i}`] });
      }
    }
    level = next;
  }
  return { rows, leaves: level };
}

/** 10 % of base terms contain "xyz" (half of them upper-case), for the search scenario. */
function baseTermOf(index, path) {
  const text = `${WORDS[index % WORDS.length]} ${path.join(' ')} item ${index}`;
  if (index % 20 === 0) return `${text} (XYZ)`;
  if (index % 20 === 10) return `${text} xyz`;
  return text;
}

/** Seeds the large project owned by `ownerId`; returns its ids and what was written. */
export async function seedLargeProject({ kind, url, ownerId, layout }) {
  const started = performance.now();
  const writer = kind === 'sqlite' ? openSqliteWriter(url) : await openPostgresWriter(url);
  const ids = new IdPool();
  try {
    for (const table of Object.keys(TABLES)) checkColumns(table, await writer.columns(table));
    const now = new Date().toISOString();
    const [projectId] = await ids.take(1);
    const project = [projectId, ownerId, 'Large bench project', LARGE_BASE_LANGUAGE, JSON.stringify(LARGE_LANGUAGES), 1, now, now];
    const tree = await groupTree(ids, projectId, layout.fanout, now);
    await writer.write({ projects: [project], groups: tree.rows });

    const random = prng(0x7011c);
    const reviewRandom = prng(0x5eed);
    let reviewedCount = 0;
    const untranslated = Object.fromEntries(LARGE_LANGUAGES.map((language) => [language, 0]));
    let entryCount = 0;
    let translationCount = 0;
    for (let first = 0; first < tree.leaves.length; first += LEAVES_PER_BATCH) {
      const leaves = tree.leaves.slice(first, first + LEAVES_PER_BATCH);
      const entryIds = await ids.take(leaves.length * layout.entriesPerLeaf);
      const entries = [];
      const pending = [];
      const missing = [];
      for (const leaf of leaves) {
        for (let k = 0; k < layout.entriesPerLeaf; k += 1) {
          const id = entryIds[entries.length];
          const baseTerm = baseTermOf(entryCount, leaf.path);
          const created = new Date(EPOCH + entryCount * 1000).toISOString();
          const context = entryCount % 4 === 0 ? `Shown on ${leaf.path.join(' › ')}` : null;
          entries.push([id, projectId, leaf.id, `term${String(k).padStart(3, '0')}`, baseTerm, baseTerm.toLowerCase(), context, created, created]);
          for (const language of LARGE_LANGUAGES) {
            if (random() < TRANSLATED_SHARE) pending.push([id, language, `${language}: ${baseTerm}`, created]);
            else {
              untranslated[language] += 1;
              missing.push([id, language, projectId, created]);
            }
          }
          entryCount += 1;
        }
      }
      const translationIds = await ids.take(pending.length);
      const translations = pending.map(([entryId, language, text, created], i) => {
        const row = [translationIds[i], entryId, language, text, ownerId, created, created];
        if (reviewRandom() >= REVIEWED_SHARE) return [...row, 'translated', null, null, null, null];
        reviewedCount += 1;
        if (reviewRandom() < EDITED_SINCE_REVIEW_SHARE) return [...row, 'translated', `${text} (as reviewed)`, ownerId, created, 0];
        return [...row, 'reviewed', text, ownerId, created, 0];
      });
      await writer.write({ entries, translations, missing_translations: missing });
      translationCount += translations.length;
    }
    await writer.finish();
    return {
      projectId,
      leafGroupIds: tree.leaves.map((leaf) => leaf.id),
      languages: LARGE_LANGUAGES,
      untranslated,
      groups: tree.rows.length,
      entries: entryCount,
      translations: translationCount,
      reviewed: reviewedCount,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await ids.close();
    await writer.close();
  }
}

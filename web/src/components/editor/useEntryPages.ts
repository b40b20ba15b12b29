/**
 * The selected group's entries, loaded in pages of 100 as rows come into view: the first page's
 * `total` sizes the grid, later pages arrive when the virtual rows reach them. A new group, search
 * or filter starts over (answers for the old one are dropped). A filtered grid reads the group's
 * pages at once (up to FILTER_SCAN_LIMIT entries) and keeps the rows that match: the API filters
 * no group's entries by review state, and a match may be on any page.
 */
import { ref, shallowReactive, watch, type Ref } from 'vue';
import { api } from '../../api';
import type { Entry, EntryListItem, Page } from '../../types';
import type { RowFilter } from './entryFilters';

export const PAGE_SIZE = 100;
/** The entries a filtered grid reads at most: 20 requests, a small part of a day's request budget. */
export const FILTER_SCAN_LIMIT = 2_000;

/** A list item as a grid row: asked withTranslations=true, so its translations are there (the schema has them optional). */
const asRow = (item: EntryListItem): Entry => ({ ...item, translations: item.translations ?? [] });

export function useEntryPages(groupId: Ref<string | null>, search: Ref<string>, filter: Ref<RowFilter | null> = ref(null)) {
  const pages = shallowReactive(new Map<number, Entry[]>());
  const total = ref(0);
  const loaded = ref(false);
  const error = ref<string | null>(null);
  /** a filtered grid's reach: the group's entries read, of how many (fewer when past FILTER_SCAN_LIMIT) */
  const scanned = ref<{ read: number; of: number } | null>(null);
  const inflight = new Map<number, Promise<void>>();
  let filtering: Promise<void> | null = null;
  let generation = 0;
  let controller = new AbortController();

  const readPage = (id: string, offset: number): Promise<Page<EntryListItem>> =>
    api<Page<EntryListItem>>(`/groups/${id}/entries`, {
      query: { limit: PAGE_SIZE, offset, withTranslations: true, search: search.value.trim() || undefined },
      signal: controller.signal,
    });

  function loadPage(page: number): Promise<void> {
    const id = groupId.value;
    if (filter.value) return loadFiltered();
    if (id === null || pages.has(page)) return Promise.resolve();
    const running = inflight.get(page);
    if (running) return running;
    const started = generation;
    const promise = readPage(id, page * PAGE_SIZE)
      .then((answer) => {
        if (started !== generation) return;
        total.value = answer.total;
        pages.set(page, answer.result.map(asRow));
        loaded.value = true;
        error.value = null;
      })
      .catch((failure: unknown) => {
        if (started !== generation) return;
        error.value = failure instanceof Error ? failure.message : String(failure);
      })
      .finally(() => {
        if (started === generation) inflight.delete(page);
      });
    inflight.set(page, promise);
    return promise;
  }

  /** Every page of the group (up to the limit) at once; the rows `filter` keeps, in the group's order, as the grid's pages. */
  function loadFiltered(): Promise<void> {
    const id = groupId.value;
    const wanted = filter.value;
    if (id === null || !wanted) return Promise.resolve();
    if (filtering) return filtering;
    const started = generation;
    filtering = (async () => {
      const first = await readPage(id, 0);
      const offsets: number[] = [];
      for (let offset = PAGE_SIZE; offset < Math.min(first.total, FILTER_SCAN_LIMIT); offset += PAGE_SIZE) offsets.push(offset);
      const rest = await Promise.all(offsets.map((offset) => readPage(id, offset)));
      if (started !== generation) return;
      const kept = [first, ...rest].flatMap((answer) => answer.result.map(asRow)).filter((entry) => wanted.matches(entry));
      for (let page = 0; page * PAGE_SIZE < kept.length; page++) pages.set(page, kept.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE));
      total.value = kept.length;
      scanned.value = { read: Math.min(first.total, FILTER_SCAN_LIMIT), of: first.total };
      loaded.value = true;
      error.value = null;
    })().catch((failure: unknown) => {
      if (started !== generation) return;
      filtering = null;
      error.value = failure instanceof Error ? failure.message : String(failure);
    });
    return filtering;
  }

  /** Loads the pages holding rows first..last (inclusive). */
  function ensureRows(first: number, last: number): void {
    if (last < first) return;
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) void loadPage(page);
  }

  function rowAt(index: number): Entry | undefined {
    return pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  /** The row, loading its page when needed (undefined past the end). */
  async function loadRow(index: number): Promise<Entry | undefined> {
    await loadPage(Math.floor(index / PAGE_SIZE));
    return rowAt(index);
  }

  function replaceRow(index: number, entry: Entry): void {
    const page = Math.floor(index / PAGE_SIZE);
    const rows = pages.get(page);
    if (!rows) return;
    const copy = rows.slice();
    copy[index % PAGE_SIZE] = entry;
    pages.set(page, copy);
  }

  function forget(): void {
    generation++;
    controller.abort();
    controller = new AbortController();
    inflight.clear();
    filtering = null;
    pages.clear();
  }

  /** Starts over from an empty grid (another group or search). */
  function reset(): void {
    forget();
    total.value = 0;
    loaded.value = false;
    error.value = null;
    scanned.value = null;
    void loadPage(0);
  }

  /** Reloads rows first..last in place, keeping the grid's size until the answers come (after a create or delete). */
  function refresh(first: number, last: number): void {
    forget();
    void loadPage(0);
    ensureRows(first, last);
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(groupId, reset, { immediate: true });
  watch(() => filter.value?.key, reset);
  watch(search, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(reset, 250);
  });

  return { total, loaded, error, scanned, ensureRows, rowAt, loadRow, replaceRow, reset, refresh };
}

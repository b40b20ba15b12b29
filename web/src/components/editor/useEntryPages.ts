/**
 * The selected group's entries, loaded in pages of 100 as rows come into view: the first page's
 * `total` sizes the grid, later pages arrive when the virtual rows reach them. A new group or
 * search starts over (answers for the old one are dropped).
 */
import { ref, shallowReactive, watch, type Ref } from 'vue';
import { api } from '../../api';
import type { Entry, EntryListItem, Page } from '../../types';

export const PAGE_SIZE = 100;

/** A list item as a grid row: asked withTranslations=true, so its translations are there (the schema has them optional). */
const asRow = (item: EntryListItem): Entry => ({ ...item, translations: item.translations ?? [] });

export function useEntryPages(groupId: Ref<string | null>, search: Ref<string>) {
  const pages = shallowReactive(new Map<number, Entry[]>());
  const total = ref(0);
  const loaded = ref(false);
  const error = ref<string | null>(null);
  const inflight = new Map<number, Promise<void>>();
  let generation = 0;
  let controller = new AbortController();

  function loadPage(page: number): Promise<void> {
    const id = groupId.value;
    if (id === null || pages.has(page)) return Promise.resolve();
    const running = inflight.get(page);
    if (running) return running;
    const started = generation;
    const promise = api<Page<EntryListItem>>(`/groups/${id}/entries`, {
      query: { limit: PAGE_SIZE, offset: page * PAGE_SIZE, withTranslations: true, search: search.value.trim() || undefined },
      signal: controller.signal,
    })
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
    pages.clear();
  }

  /** Starts over from an empty grid (another group or search). */
  function reset(): void {
    forget();
    total.value = 0;
    loaded.value = false;
    error.value = null;
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
  watch(search, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(reset, 250);
  });

  return { total, loaded, error, ensureRows, rowAt, loadRow, replaceRow, reset, refresh };
}

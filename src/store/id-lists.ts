/**
 * Reads and writes that name many rows by id do it in `in (…)` lists of IDS_PER_LIST: far below both
 * stores' parameter limits (SQLite 32,766, PostgreSQL 65,535), and few statements for a large batch.
 */
export const IDS_PER_LIST = 1_000;

/** Runs `each` on `ids` list by list, one after another; answers the rows of all, in order. */
export async function inLists<T>(ids: readonly string[], each: (list: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_LIST) rows.push(...(await each(ids.slice(start, start + IDS_PER_LIST))));
  return rows;
}

/** The spec's Page: limit, offset, total, result. */
export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> extends PageRequest {
  total: number;
  result: T[];
}

/** Builds a Page from repository rows mapped to their views. */
export function pageOf<R, T>(request: PageRequest, found: { rows: R[]; total: number }, view: (row: R) => T): Page<T> {
  return { limit: request.limit, offset: request.offset, total: found.total, result: found.rows.map(view) };
}

/**
 * The reads one server keeps in memory per project content version (content-cache.ts explains why a
 * kept value is never served after a write): owned by the app that serves them (buildApp makes one and
 * hands it to its routes), not by the module, so two apps in one process keep and bound their own.
 * What changed is announced by the store's change feed (store/content-writes/change-feed.ts).
 */
import { KeptProjects } from '../../exports/kept-rows.js';
import { ContentCache } from './content-cache.js';

export class ContentCaches {
  /** entry pages, single entries, untranslated pages and their totals, progress */
  readonly entryReads = new ContentCache(32 * 1024 * 1024);
  /**
   * Whole exports of the current content version, up to 8 MB each: CI jobs and apps poll exports, and
   * an unchanged project then costs one access check instead of a snapshot.
   */
  readonly exports = new ContentCache(64 * 1024 * 1024);
  /** each project's message problems (GET …/checks), computed from one snapshot */
  readonly problems = new ContentCache(64 * 1024 * 1024, 1 / 2);
  /** the rows a small project's export last read, re-read only where texts changed (kept-rows.ts) */
  readonly exportRows = new KeptProjects();
}

/**
 * A consistent view of one project for an export: its languages, its group tree, and its texts one
 * language at a time (so memory holds one language, not the whole project).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { listProjectGroups } from '../store/repositories/groups.js';
import { exportBatch, type ExportCursor } from '../store/repositories/exports.js';
import { findProjectById, type ProjectRecord } from '../store/repositories/projects.js';
import type { Db } from '../store/schema.js';

export interface GroupNode {
  id: string;
  technicalName: string;
  children: GroupNode[];
}

export interface ExportEntry {
  technicalName: string;
  text: string;
  contextInfo: string | null;
}

/** One language's texts: entries by group id, each list in technical-name order. */
export type LanguageContent = Map<string, ExportEntry[]>;

export interface ProjectSnapshot {
  project: ProjectRecord;
  /** the base language first, then the translation languages in the project's order */
  languages: string[];
  /** top-level groups, each level in technical-name order */
  roots: GroupNode[];
  /** the texts of one language; a missing translation falls back to the base term */
  content(language: string): Promise<LanguageContent>;
}

/** Rows per query: large enough to be cheap, small enough that other requests run in between. */
const BATCH = 2000;

/** Reads the project's snapshot through `db` (a read transaction, for consistency); undefined if it is gone. */
export async function loadSnapshot(db: Db, projectId: string): Promise<ProjectSnapshot | undefined> {
  const project = await findProjectById(db, projectId);
  if (!project) return undefined;
  const nodes = new Map<string | null, GroupNode[]>();
  for (const group of await listProjectGroups(db, projectId)) {
    const node: GroupNode = { id: group.id, technicalName: group.technical_name, children: [] };
    const siblings = nodes.get(group.parent_id);
    if (siblings) siblings.push(node);
    else nodes.set(group.parent_id, [node]);
  }
  const attach = (list: GroupNode[]): GroupNode[] => {
    for (const node of list) node.children = attach(nodes.get(node.id) ?? []);
    return list;
  };
  return {
    project,
    languages: [project.baseLanguage, ...project.translationLanguages],
    roots: attach(nodes.get(null) ?? []),
    content: (language) => readLanguage(db, projectId, language === project.baseLanguage ? null : language),
  };
}

async function readLanguage(db: Db, projectId: string, language: string | null): Promise<LanguageContent> {
  const content: LanguageContent = new Map();
  let after: ExportCursor | null = null;
  for (;;) {
    const rows = await exportBatch(db, projectId, language, after, BATCH);
    for (const row of rows) {
      const entry = { technicalName: row.technical_name, text: row.text, contextInfo: row.context_info };
      const list = content.get(row.group_id);
      if (list) list.push(entry);
      else content.set(row.group_id, [entry]);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return content;
    after = { groupId: last.group_id, technicalName: last.technical_name };
    // Let other requests run between batches: one large export must not stall the server.
    await yieldToEventLoop();
  }
}

/**
 * Carries out a push plan through the API, one write at a time in dependency order (groups parents
 * first, then entries, their updates, then translations). The server judges every write; the first
 * one it refuses stops the push, and the error says how far it got (what was written stays).
 */
import type { ApiClient } from './api-client.js';
import type { PushPlan } from './plan.js';
import type { ProjectState } from './project-state.js';

interface Step {
  what: string;
  run: () => Promise<void>;
}

function steps(api: ApiClient, projectId: string, state: ProjectState, plan: PushPlan): Step[] {
  const groupIds = new Map(state.groups);
  const entryIds = new Map([...state.entries].map(([path, entry]) => [path, entry.id]));
  const split = (path: string) => {
    const at = path.lastIndexOf('.');
    return { parent: at < 0 ? null : path.slice(0, at), name: path.slice(at + 1) };
  };
  const idOf = (ids: Map<string, string>, path: string) => encodeURIComponent(ids.get(path)!);
  return [
    ...plan.groups.map((path): Step => ({
      what: `create group ${path}`,
      run: async () => {
        const { parent, name } = split(path);
        const body = { technicalName: name, displayName: name, parentId: parent === null ? null : groupIds.get(parent) };
        const group = await api.request<{ id: string }>('POST', `/projects/${encodeURIComponent(projectId)}/groups`, body);
        groupIds.set(path, group.id);
      },
    })),
    ...plan.entries.map((entry): Step => ({
      what: `create entry ${entry.path}`,
      run: async () => {
        const { parent, name } = split(entry.path);
        const body = { technicalName: name, baseTerm: entry.baseTerm, ...(entry.contextInfo === undefined ? {} : { contextInfo: entry.contextInfo }) };
        const created = await api.request<{ id: string }>('POST', `/groups/${idOf(groupIds, parent!)}/entries`, body);
        entryIds.set(entry.path, created.id);
      },
    })),
    ...plan.updates.map((update): Step => ({
      what: `update entry ${update.path}`,
      run: async () => {
        const body = { ...(update.baseTerm ? { baseTerm: update.baseTerm.to } : {}), ...(update.contextInfo ? { contextInfo: update.contextInfo.to } : {}) };
        await api.request('PATCH', `/entries/${encodeURIComponent(update.id)}`, body);
      },
    })),
    ...plan.translations.map((change): Step => ({
      what: `set the ${change.language} translation of ${change.path}`,
      run: async () => {
        await api.request('PUT', `/entries/${idOf(entryIds, change.path)}/translations`, { language: change.language, translation: change.to });
      },
    })),
  ];
}

/** Runs the plan's writes; returns how many were made. */
export async function applyPlan(api: ApiClient, projectId: string, state: ProjectState, plan: PushPlan): Promise<number> {
  const all = steps(api, projectId, state, plan);
  for (const [index, step] of all.entries()) {
    try {
      await step.run();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const where = `stopped at write ${index + 1} of ${all.length} (${step.what}); the ${index} before it were made`;
      throw new Error(`${reason} (${where})`);
    }
  }
  return all.length;
}

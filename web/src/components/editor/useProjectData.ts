/** The project the editor shows: the project with its capabilities, its groups, and its progress. */
import { ref, type Ref } from 'vue';
import { api, ApiError } from '../../api';
import type { GroupSummary, Project, ProjectProgress } from '../../types';

export function useProjectData(projectId: Ref<string>) {
  const project = ref<Project | null>(null);
  const groups = ref<GroupSummary[]>([]);
  const progress = ref<ProjectProgress | null>(null);
  const loadError = ref<string | null>(null);
  const notFound = ref(false);

  async function load(): Promise<void> {
    loadError.value = null;
    notFound.value = false;
    const id = projectId.value;
    try {
      const [loaded, summary] = await Promise.all([
        api<Project>(`/projects/${id}`),
        api<GroupSummary[]>(`/projects/${id}/groups/summary`),
      ]);
      if (id !== projectId.value) return;
      project.value = loaded;
      groups.value = summary;
      void refreshProgressNow();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) notFound.value = true;
      loadError.value = error instanceof Error ? error.message : String(error);
    }
  }

  async function reloadGroups(): Promise<void> {
    groups.value = await api<GroupSummary[]>(`/projects/${projectId.value}/groups/summary`);
  }

  async function refreshProgressNow(): Promise<void> {
    try {
      progress.value = await api<ProjectProgress>(`/projects/${projectId.value}/progress`);
    } catch {
      // progress is informational; the bars keep their last values
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Progress after a save: coalesced, so a burst of saves asks once. */
  function refreshProgress(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void refreshProgressNow(), 400);
  }

  return { project, groups, progress, loadError, notFound, load, reloadGroups, refreshProgress };
}

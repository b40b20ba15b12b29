/** The Project resource as the API shows it. */
import type { ProjectRecord } from '../../store/repositories/projects.js';
import type { Capabilities } from '../access/capabilities.js';
import type { KeyStyle } from '../../names/technical-names.js';

export interface MemberQuota {
  limit: number;
  confirmedCount: number;
  overLimitCount: number;
}

export interface ProjectView {
  id: string;
  ownerId: string;
  owner: { id: string; firstName: string; lastName: string };
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  keyStyle: KeyStyle;
  createdAt: string;
}

/** The single-project shape: capabilities and quota are null in the create response, set on GET. */
export interface ProjectDetailView extends ProjectView {
  capabilities: Capabilities | null;
  memberQuota: MemberQuota | null;
}

/** The fields every project view has; capabilities and memberQuota are added where the spec puts them. */
export function projectView(project: ProjectRecord): ProjectView {
  return {
    id: project.id,
    ownerId: project.ownerId,
    owner: { id: project.ownerId, firstName: project.ownerFirstName, lastName: project.ownerLastName },
    name: project.name,
    baseLanguage: project.baseLanguage,
    translationLanguages: project.translationLanguages,
    keyStyle: project.keyStyle,
    createdAt: project.createdAt,
  };
}

/** Types of small-project.mjs, for the tests that seed the bench's small project. */
import type { ApiCall } from './api-client.mjs';

export const SMALL_LANGUAGES: string[];
export function seedSmallProject(call: ApiCall): Promise<{ projectId: string; groupIds: string[]; entryIds: string[]; seconds: number }>;

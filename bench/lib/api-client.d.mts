/** Types of api-client.mjs, for the tests that seed as the bench does. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<any>;
export function apiClient(baseUrl: string, apiKey: string): ApiCall;

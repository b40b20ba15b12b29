/**
 * The census's list (census.test.ts): per content-writing operation, the ways it changes something and the
 * ways it changes nothing (refused: 400/403/404/409/412; or a no-op); and the mutating operations that
 * write no content, with why. Each case gets a fresh world (census.test.ts buildWorld).
 */
import { arbCases, importCases } from './import-cases.js';
import { entryCases, groupCases, projectCases, translationCases } from './content-cases.js';
import { revertCases } from './revert-cases.js';
import { reviewCases } from './review-cases.js';
import type { CensusCase } from './world.js';

/**
 * The mutating operations that write no project content, and why the census leaves them out
 * (census.test.ts checks what the contract says of members, project creation and deletion).
 */
export const NOT_CONTENT: Readonly<Record<string, string>> = {
  'POST /auth/sign-up': 'makes an account',
  'POST /auth/sign-in': 'opens a web session',
  'POST /auth/sign-out': 'ends a web session',
  'PUT /auth/password': "changes the account's password",
  'POST /auth/verify-email': "confirms the account's e-mail address",
  'POST /auth/verify-email/resend': 'mails a verification link',
  'PATCH /info': "the caller's own profile",
  'POST /keys': 'API keys are not part of history',
  'DELETE /keys/{id}': 'API keys are not part of history',
  'POST /projects': 'creating a project records nothing: its history starts empty (checked below)',
  'DELETE /projects/{id}': 'deleting a project removes its history with it (checked below)',
  'POST /projects/{id}/members': 'members are not part of history (checked below)',
  'POST /projects/{id}/members/accept': 'members are not part of history (checked below)',
  'PATCH /projects/{id}/members/{userId}': 'members are not part of history (checked below)',
  'DELETE /projects/{id}/members/{userId}': 'members are not part of history (checked below)',
  'POST /projects/{id}/transfer-ownership': 'ownership is membership, not content (checked below)',
};

export const CENSUS_CASES: readonly CensusCase[] = [...translationCases, ...entryCases, ...groupCases, ...projectCases, ...importCases, ...arbCases, ...revertCases, ...reviewCases];

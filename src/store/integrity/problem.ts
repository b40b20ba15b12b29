/** What an integrity check reports: which invariant is broken, and where, in one line. */

/** The closed list of invariants `tolk doctor` checks; a problem names the one it breaks. */
export type IntegrityCheck =
  | 'dangling-reference'
  | 'owner-is-member'
  | 'duplicate-name'
  | 'duplicate-translation'
  | 'duplicate-email'
  | 'group-cycle'
  | 'group-depth'
  | 'unknown-locale'
  | 'language-list'
  | 'technical-name'
  | 'member-role'
  | 'account-origin'
  | 'invitation'
  | 'derived-key'
  | 'missing-translations'
  | 'message-syntax'
  | 'review-state'
  | 'change-log-mapping';

export interface IntegrityProblem {
  check: IntegrityCheck;
  /** names the rows involved by id, so that whoever repairs the store can find them */
  message: string;
}

/** A problem of the given check. */
export function problem(check: IntegrityCheck, message: string): IntegrityProblem {
  return { check, message };
}

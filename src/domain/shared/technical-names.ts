/**
 * The contract's rule for group and entry technical names, in one place: the request schemas
 * validate with it, `tolk doctor` checks stored names against it, the Flutter export asserts it,
 * and `tolk push` uses it to choose names the server will take.
 */
export const TECHNICAL_NAME_PATTERN = '^[a-z][a-zA-Z0-9]*$';
export const TECHNICAL_NAME = new RegExp(TECHNICAL_NAME_PATTERN);

/** Lengths in characters (code points), both ends included. */
export const GROUP_NAME_LENGTH = { min: 1, max: 100 } as const;
export const ENTRY_NAME_LENGTH = { min: 4, max: 100 } as const;

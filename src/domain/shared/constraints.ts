/** Turns database constraint failures into the contract's errors. */
import { conflict, type AppError } from '../../errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/dialect.js';

/**
 * Runs a write whose uniqueness the database guarantees: a unique violation becomes 409 with
 * `conflictMessage`, a foreign-key violation (a parent deleted meanwhile) becomes `gone()`.
 */
export async function guardConstraints<T>(write: () => Promise<T>, conflictMessage: string, gone: () => AppError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(conflictMessage);
    if (isForeignKeyViolation(error)) throw gone();
    throw error;
  }
}

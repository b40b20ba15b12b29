/** The busy flag and error of a form's or dialog's submission, which every form would otherwise repeat. */
import { ref, type Ref } from 'vue';

export interface Submission<E> {
  /** True while an action runs (its submit button is disabled meanwhile). */
  busy: Ref<boolean>;
  /** What the last action threw (through `toError` when given); null while it runs and after it succeeded. */
  error: Ref<E | null>;
  /** Clears the error and runs `action` with `busy` set; resolves to whether it succeeded (never rejects). */
  run: (action: () => Promise<void>) => Promise<boolean>;
}

export function useSubmission(): Submission<unknown>;
export function useSubmission<E>(toError: (caught: unknown) => E): Submission<E>;
export function useSubmission(toError?: (caught: unknown) => unknown): Submission<unknown> {
  const busy = ref(false);
  const error = ref<unknown>(null);

  async function run(action: () => Promise<void>): Promise<boolean> {
    busy.value = true;
    error.value = null;
    try {
      await action();
      return true;
    } catch (caught) {
      error.value = toError ? toError(caught) : caught;
      return false;
    } finally {
      busy.value = false;
    }
  }

  return { busy, error, run };
}

/** Edit conflicts, asked one at a time: a save that met a newer stored text waits for the translator's choice. */
import { shallowRef } from 'vue';

export interface ConflictQuestion {
  entryName: string;
  language: string;
  /** the text the translator tried to save */
  mine: string;
  /** the stored text ('' when it was deleted meanwhile) */
  theirs: string;
}

/** keep theirs, or save `text` (mine unchanged, or a merge) over the stored one */
export type ConflictChoice = { kind: 'theirs' } | { kind: 'save'; text: string };

export function useConflicts() {
  const current = shallowRef<ConflictQuestion | null>(null);
  let answer: ((choice: ConflictChoice) => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  function ask(question: ConflictQuestion): Promise<ConflictChoice> {
    const asked = queue.then(
      () =>
        new Promise<ConflictChoice>((resolve) => {
          current.value = question;
          answer = resolve;
        }),
    );
    queue = asked;
    return asked;
  }

  function resolve(choice: ConflictChoice): void {
    const pending = answer;
    answer = null;
    current.value = null;
    pending?.(choice);
  }

  return { current, ask, resolve };
}

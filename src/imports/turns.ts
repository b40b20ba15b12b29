/**
 * Turns of the event loop for long synchronous work (reading and planning a large import): the work
 * lets other requests run whenever it has held the event loop for TURN_BUDGET_MS, whatever the
 * machine's speed, instead of every so many items (20,000 items took 0.3 s on one machine, 3 s on a
 * loaded one).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of event-loop time a long import step takes before it lets other requests run. */
export const TURN_BUDGET_MS = 25;

/** Called between items: a promise of the next turn once the budget is spent since the last one, else undefined (no cost). */
export type TakeTurn = () => Promise<void> | undefined;

/** A TakeTurn whose budget starts now. */
export function turnTaker(budgetMs = TURN_BUDGET_MS): TakeTurn {
  let since = performance.now();
  return () => {
    if (performance.now() - since < budgetMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}

/**
 * The event loop's longest stall while something runs. The test servers run in the test's own process
 * (startServer), so a request that holds the server's event loop holds this timer too: the longest gap
 * between two ticks is the longest time any other client of that server would have waited for an answer.
 * Bounds on it are correctness properties (no request may hold the server), set generously: these
 * machines are shared and noisy.
 */
import { performance } from 'node:perf_hooks';

const TICK_MS = 5;

export interface StallWatch {
  /** Stops watching; the longest gap between two ticks, in milliseconds. */
  stop(): number;
}

/** Starts measuring the longest event-loop gap from now on. */
export function watchEventLoop(): StallWatch {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, TICK_MS);
  return {
    stop() {
      clearInterval(timer);
      longest = Math.max(longest, performance.now() - last);
      return Math.round(longest);
    },
  };
}

/** Runs `work` and gives its result with the longest event-loop stall seen while it ran. */
export async function measureStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  const watch = watchEventLoop();
  try {
    const result = await work();
    return { result, stallMs: watch.stop() };
  } catch (error) {
    watch.stop();
    throw error;
  }
}

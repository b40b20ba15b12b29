/**
 * How much V8 lets the old generation grow past what is live before its next full collection. V8
 * picks a factor of up to 4 from how fast it collects; under many concurrent requests (objects that
 * live across a database round trip reach the old generation) a server was left at ~260 MB of RSS
 * after the bench's mixed load for ~60 MB live, and a large export started then peaked on top of that.
 * Measured (tmp harness, PostgreSQL, 8 s of `mixed`, then the large exports one by one), V8's own
 * factor → at most 2× (100 %) → at most 1.5× (50 %): RSS after the load 262 → 182 → 172 MB; large
 * exports json / vue-i18n / i18next / Flutter 268 / 230 / 236 / 240 → 200 / 204 / 218 / 225 →
 * 189 / 208 / 210 / 222 MB. `mixed` req/s and p99, interleaved, V8's factor against 100 %:
 * 1,116 / 1,174 / 1,078 (p99 114 / 97 / 112) against 1,105 / 1,076 / 1,159 (p99 111 / 110 / 110); at
 * 50 % ~5 % fewer on PostgreSQL, and the large import took ~10 % longer there. Hence 100 %.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

const FLAG = '--heap-growing-percent';

/**
 * Sets the old generation's growing factor for `tolk serve`, unless the operator chose one
 * (`node --heap-growing-percent=…` or NODE_OPTIONS). Returns the flag set, or null.
 */
export function tuneHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string | null {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some((option) => option === FLAG || option.startsWith(`${FLAG}=`) || option.startsWith('--heap_growing_percent'));
  if (chosen) return null;
  const flag = `${FLAG}=${HEAP_GROWING_PERCENT}`;
  setFlagsFromString(flag);
  return flag;
}

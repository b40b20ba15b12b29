/** Formatting shared by the account pages: dates in the user's timezone, error texts of failed calls. */
import { ApiError } from '../../api';
import { i18next } from '../../i18n';
import { session } from '../../session';

/** A timestamp as date and time in the signed-in user's timezone (the browser's when unknown). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  const zone = session.user?.timezone;
  try {
    return new Intl.DateTimeFormat(i18next.language, { ...options, timeZone: zone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(i18next.language, options).format(new Date(iso));
  }
}

/** The message to show for a failed call: the server's own message, or a generic one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.body.message || error.message;
  return i18next.t('app.errors.network');
}

/** Milliseconds the zone is ahead of UTC at the given instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - instant;
}

/** The last second of a calendar day (yyyy-mm-dd) in the user's timezone, as an ISO instant. */
export function endOfDayIso(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, 23, 59, 59);
  const zone = session.user?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    return new Date(wall - zoneOffset(wall, zone)).toISOString();
  } catch {
    return new Date(wall).toISOString();
  }
}

/** Today as yyyy-mm-dd in the user's timezone (for a date input's min). */
export function todayIso(): string {
  const zone = session.user?.timezone;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

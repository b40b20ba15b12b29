/** Who is signed in: read once at start-up from GET /auth/session and kept in step by sign-in/out. */
import { reactive } from 'vue';
import { api, useCsrfToken } from './api';
import { useUiLocale } from './i18n';
import type { Profile, SessionState } from './types';

export const session = reactive<SessionState & { loaded: boolean }>({ user: null, csrfToken: null, signUpOpen: false, loaded: false });

/** Applies what the server said about the session (token for later writes, UI language). */
export function applySession(state: Partial<SessionState>): void {
  if (state.user !== undefined) session.user = state.user;
  if (state.csrfToken !== undefined) {
    session.csrfToken = state.csrfToken;
    useCsrfToken(state.csrfToken);
  }
  if (state.signUpOpen !== undefined) session.signUpOpen = state.signUpOpen;
  if (session.user) useUiLocale(session.user.locale);
}

/** Reads the session from the server (once per page load, and after sign-in/out). */
export async function loadSession(): Promise<void> {
  applySession(await api<SessionState>('/auth/session'));
  session.loaded = true;
}

/** Replaces the signed-in user's profile after an edit. */
export function updateProfile(profile: Profile): void {
  applySession({ user: profile });
}

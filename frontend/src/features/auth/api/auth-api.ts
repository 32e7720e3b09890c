import { callApi, NETWORK_ERROR_MESSAGE, type ApiFailure } from '@/lib/api/call-api';
import { PERSIST_RESTORE_TIMEOUT_MS, useAppStore, waitForRestore } from '@/stores/app-store';

export type SignInResult = { ok: true } | { ok: false; message: string };

function signInFailure(failure: ApiFailure): string {
  if (failure.kind === 'network') return NETWORK_ERROR_MESSAGE;
  if (failure.kind === 'unexpected') return 'Sign-in failed. Please try again.';
  const { status, body } = failure;
  if (status === 401) return body?.error || 'Invalid email or password.';
  if (status === 429) {
    return body?.error || 'Too many sign-in attempts. Please wait a minute and try again.';
  }
  if (status === 400) return body?.error || 'Enter your email and password.';
  // 403: e.g. the organisation is suspended; the server says why.
  if (status === 403) return body?.error || 'You cannot sign in at the moment.';
  return 'Signing in failed on our side. Please try again in a moment.';
}

function signInFailed(message: string): SignInResult {
  useAppStore.getState().setAuthStatus('failed', message);
  return { ok: false, message };
}

/**
 * Signs in, then loads what the guards need (allowed paths) and the user's
 * preferences. The store learns about the sign-in only when all of that is in,
 * so the guard decides the first page with full facts.
 */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  useAppStore.getState().setAuthStatus('loading');
  const login = await callApi((api) => api.POST('/api/auth/login', { body: { email, password } }));
  if (!login.ok) return signInFailed(signInFailure(login));
  if ((await loadSession()) !== 'ok') {
    return signInFailed(
      'You are signed in, but your session could not be loaded. Please try again.',
    );
  }
  return { ok: true };
}

export type SessionOutcome = 'ok' | 'signed-out' | 'unreachable';

/** Neither start-up call may keep the app waiting longer than the restore time-out. */
const restoreTimeout = () => ({ signal: AbortSignal.timeout(PERSIST_RESTORE_TIMEOUT_MS) });

/**
 * Asks the server who is signed in and what they may open, and the user's
 * preferences. `unauthenticated` signs out; a server that does not answer
 * within the restore time-out counts as unreachable.
 */
export async function loadSession(): Promise<SessionOutcome> {
  const session = await callApi((api) => api.GET('/api/auth/session', restoreTimeout()));
  if (!session.ok) {
    if (session.kind === 'status' && session.status === 401) {
      useAppStore.getState().resetAll();
      return 'signed-out';
    }
    return 'unreachable';
  }
  // Preferences only change the look and the landing page; failing to load them is not fatal.
  const preferences = await callApi((api) => api.GET('/api/me/preferences', restoreTimeout()));
  const store = useAppStore.getState();
  if (preferences.ok) store.preferencesLoaded(preferences.data);
  store.sessionLoaded(session.data);
  return 'ok';
}

/**
 * App start: wait for the persisted auth (at most the restore time-out), then
 * confirm it with the server. Without a stored token there is nothing to ask.
 */
export async function restoreSession(): Promise<SessionOutcome> {
  await waitForRestore();
  if (!useAppStore.getState().auth.csrfToken) return 'signed-out';
  return loadSession();
}

/**
 * Signs out on the server, then locally: the persisted state is removed and
 * every slice reset, whatever the server answered. (Offline, the server
 * session expires on its own.)
 */
export async function signOut(): Promise<void> {
  await callApi((api) => api.POST('/api/auth/logout'));
  useAppStore.getState().resetAll();
}

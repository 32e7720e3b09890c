import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE, asProblem, isNetworkError } from '@/lib/api/problem';
import { PERSIST_RESTORE_TIMEOUT_MS, useAppStore, waitForRestore } from '@/stores/app-store';

export type SignInResult = { ok: true } | { ok: false; message: string };

function signInFailure(status: number, body: unknown): string {
  const problem = asProblem(body);
  if (status === 401) return problem?.error || 'Invalid email or password.';
  if (status === 429) {
    return problem?.error || 'Too many sign-in attempts. Please wait a minute and try again.';
  }
  if (status === 400) return problem?.error || 'Enter your email and password.';
  // 403: e.g. the organisation is suspended; the server says why.
  if (status === 403) return problem?.error || 'You cannot sign in at the moment.';
  return 'Signing in failed on our side. Please try again in a moment.';
}

/**
 * Signs in, then loads what the guards need (allowed paths) and the user's
 * preferences. The store learns about the sign-in only when all of that is in,
 * so the guard decides the first page with full facts.
 */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  useAppStore.getState().setAuthStatus('loading');
  try {
    const { data, error, response } = await api.POST('/api/auth/login', {
      body: { email, password },
    });
    if (!data) {
      const message = signInFailure(response.status, error);
      useAppStore.getState().setAuthStatus('failed', message);
      return { ok: false, message };
    }
    const outcome = await loadSession();
    if (outcome !== 'ok') {
      const message = 'You are signed in, but your session could not be loaded. Please try again.';
      useAppStore.getState().setAuthStatus('failed', message);
      return { ok: false, message };
    }
    return { ok: true };
  } catch (err) {
    const message = isNetworkError(err)
      ? NETWORK_ERROR_MESSAGE
      : 'Sign-in failed. Please try again.';
    useAppStore.getState().setAuthStatus('failed', message);
    return { ok: false, message };
  }
}

export type SessionOutcome = 'ok' | 'signed-out' | 'unreachable';

/**
 * Asks the server who is signed in and what they may open, and the user's
 * preferences. `unauthenticated` signs out; a server that does not answer
 * within the restore time-out counts as unreachable.
 */
export async function loadSession(): Promise<SessionOutcome> {
  try {
    const { data, response } = await api.GET('/api/auth/session', {
      signal: AbortSignal.timeout(PERSIST_RESTORE_TIMEOUT_MS),
    });
    if (!data) {
      if (response.status === 401) {
        useAppStore.getState().resetAll();
        return 'signed-out';
      }
      return 'unreachable';
    }
    const preferences = await loadPreferences();
    const store = useAppStore.getState();
    if (preferences) store.preferencesLoaded(preferences);
    store.sessionLoaded(data);
    return 'ok';
  } catch {
    return 'unreachable';
  }
}

/** Preferences only change the look and the landing page; failing to load them is not fatal. */
async function loadPreferences() {
  try {
    const { data } = await api.GET('/api/me/preferences', {
      signal: AbortSignal.timeout(PERSIST_RESTORE_TIMEOUT_MS),
    });
    return data ?? null;
  } catch {
    return null;
  }
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
 * every slice reset, whatever the server answered.
 */
export async function signOut(): Promise<void> {
  try {
    await api.POST('/api/auth/logout');
  } catch {
    // Offline: the server session expires on its own; sign out locally anyway.
  } finally {
    useAppStore.getState().resetAll();
  }
}

import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE, isNetworkError } from '@/lib/api/problem';
import type { Preferences } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';

export type SaveOutcome = { ok: true } | { ok: false; message: string };

/**
 * Saves the user's preferences on the server. The store is updated first so
 * the theme changes at once, and put back if the server refuses.
 */
export async function savePreferences(next: Preferences): Promise<SaveOutcome> {
  const store = useAppStore.getState();
  const previous = store.auth.preferences;
  store.preferencesLoaded(next);
  try {
    const { data, error } = await api.PUT('/api/me/preferences', { body: next });
    if (data) {
      useAppStore.getState().preferencesLoaded(data);
      return { ok: true };
    }
    if (previous) useAppStore.getState().preferencesLoaded(previous);
    const message =
      error && typeof error === 'object' && 'error' in error && typeof error.error === 'string'
        ? error.error
        : 'Your settings could not be saved. Please try again.';
    return { ok: false, message };
  } catch (err) {
    if (previous) useAppStore.getState().preferencesLoaded(previous);
    return {
      ok: false,
      message: isNetworkError(err)
        ? NETWORK_ERROR_MESSAGE
        : 'Your settings could not be saved. Please try again.',
    };
  }
}

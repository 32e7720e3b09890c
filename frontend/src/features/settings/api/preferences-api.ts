import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { Preferences } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';

/**
 * Saves the user's preferences on the server. The store is updated first so
 * the theme changes at once, and put back if the server refuses.
 */
export async function savePreferences(next: Preferences): Promise<ApiResult<Preferences>> {
  const previous = useAppStore.getState().auth.preferences;
  useAppStore.getState().preferencesLoaded(next);
  const result = await callApi(
    (api) => api.PUT('/api/me/preferences', { body: next }),
    'Your settings could not be saved. Please try again.',
  );
  const shown = result.ok ? result.data : previous;
  if (shown) useAppStore.getState().preferencesLoaded(shown);
  return result;
}

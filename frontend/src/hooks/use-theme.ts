import { useEffect, useSyncExternalStore } from 'react';
import type { Theme } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeToSystemTheme(onChange: () => void) {
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function systemPrefersDark() {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** The theme the user chose (`system` until preferences are loaded). */
export function useThemePreference(): Theme {
  return useAppStore((s) => s.auth.preferences?.theme ?? 'system');
}

/** The theme actually shown: `system` resolved against the OS setting. */
export function useResolvedTheme(): 'light' | 'dark' {
  const preference = useThemePreference();
  const systemDark = useSyncExternalStore(subscribeToSystemTheme, systemPrefersDark, () => false);
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

/** Puts the resolved theme on `<html data-theme>`, where the CSS variables switch. */
export function useApplyTheme() {
  const theme = useResolvedTheme();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

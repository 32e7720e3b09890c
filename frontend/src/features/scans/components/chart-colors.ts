import { useSyncExternalStore } from 'react';

/** A colour of the app's palette (a CSS variable of global.css), for drawing on a canvas or SVG. */
export function paletteColor(variable: string, fallback: string): string {
  if (typeof window === 'undefined' || typeof window.getComputedStyle !== 'function')
    return fallback;
  const value = window.getComputedStyle(document.documentElement).getPropertyValue(variable).trim();
  return value || fallback;
}

/** The colours the charts and the map use, read from the current theme. */
export function chartPalette() {
  return {
    primary: paletteColor('--primary', '#4338ca'),
    primarySoft: paletteColor('--primary-soft', '#eceafd'),
    warning: paletteColor('--warning', '#9a5b00'),
    danger: paletteColor('--danger', '#b42318'),
    success: paletteColor('--success', '#067647'),
    text: paletteColor('--text', '#131a2b'),
    muted: paletteColor('--text-muted', '#56607a'),
    border: paletteColor('--border', '#dfe3ec'),
    surface: paletteColor('--surface', '#ffffff'),
    surface2: paletteColor('--surface-2', '#f0f2f7'),
    borderStrong: paletteColor('--border-strong', '#c5cbd8'),
  };
}

function subscribeToThemeAttribute(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-theme'],
  });
  return () => observer.disconnect();
}

/**
 * The theme as `<html data-theme>` has it now. The palette's CSS variables
 * switch with that attribute, which the app sets after its render, so the
 * charts follow the attribute rather than the preference.
 */
export function useDocumentTheme(): string {
  return useSyncExternalStore(
    subscribeToThemeAttribute,
    () => document.documentElement.dataset.theme ?? 'light',
    () => 'light',
  );
}

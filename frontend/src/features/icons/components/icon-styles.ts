import type { ComponentType, SVGProps } from 'react';

export type IconComponent = ComponentType<SVGProps<SVGSVGElement> & { size?: number | string }>;

/**
 * The Solar styles in @solar-icons/react. Each loads on demand into its own
 * chunk, so the gallery adds nothing to the pages people use every day.
 */
export const ICON_STYLES = {
  linear: {
    label: 'Linear (used by brandops)',
    importPath: '@solar-icons/react/linear',
    load: () => import('@solar-icons/react/linear'),
  },
  outline: {
    label: 'Outline',
    importPath: '@solar-icons/react/outline',
    load: () => import('@solar-icons/react/outline'),
  },
  bold: {
    label: 'Bold',
    importPath: '@solar-icons/react/bold',
    load: () => import('@solar-icons/react/bold'),
  },
  'bold-duotone': {
    label: 'Bold duotone',
    importPath: '@solar-icons/react/bold-duotone',
    load: () => import('@solar-icons/react/bold-duotone'),
  },
  'line-duotone': {
    label: 'Line duotone',
    importPath: '@solar-icons/react/line-duotone',
    load: () => import('@solar-icons/react/line-duotone'),
  },
  broken: {
    label: 'Broken',
    importPath: '@solar-icons/react/broken',
    load: () => import('@solar-icons/react/broken'),
  },
} as const;

export type IconStyleKey = keyof typeof ICON_STYLES;

export interface IconEntry {
  /** Export name, e.g. `TrashBinTrashIcon`. */
  name: string;
  /** Kebab-case name, e.g. `trash-bin-trash` (the file to import). */
  slug: string;
  Component: IconComponent;
}

/** `TrashBinTrash2Icon` → `trash-bin-trash-2`. */
export function slugOf(exportName: string): string {
  return exportName
    .replace(/Icon$/, '')
    .replace(/([a-z])([A-Z0-9])/g, '$1-$2')
    .replace(/([0-9])([A-Za-z])/g, '$1-$2')
    .toLowerCase();
}

/** The icons of one style module, aliases folded into one entry, sorted by name. */
export function iconsOf(module: Record<string, unknown>): IconEntry[] {
  const seen = new Set<unknown>();
  const entries: IconEntry[] = [];
  for (const [name, value] of Object.entries(module)) {
    if (!name.endsWith('Icon') || value === null || seen.has(value)) continue;
    if (typeof value !== 'object' && typeof value !== 'function') continue;
    seen.add(value);
    entries.push({ name, slug: slugOf(name), Component: value as IconComponent });
  }
  return entries.sort((a, b) => a.slug.localeCompare(b.slug));
}

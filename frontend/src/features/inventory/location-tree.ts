/**
 * Locations as a tree (issue 22: warehouse → zone → bin, with quarantine and
 * scrap locations anywhere): the flat list the API answers, put in tree
 * order with each location's depth and its path of codes.
 */

export interface LocationLike {
  id: string;
  code: string;
  name: string;
  parent_id?: string | null;
}

export interface TreeEntry<L extends LocationLike> {
  location: L;
  /** 0 for a root, 1 for its children, … */
  depth: number;
  /** The codes from the root down to this location (`WH1 / A / A-01`). */
  path: string;
}

/**
 * The locations in tree order: each root (no parent, or a parent not in the
 * list) then its descendants, siblings ordered by code. A cycle in the data
 * cannot loop: every location is placed once.
 */
export function locationTree<L extends LocationLike>(locations: readonly L[]): TreeEntry<L>[] {
  const ids = new Set(locations.map((l) => l.id));
  const children = new Map<string | null, L[]>();
  for (const location of locations) {
    const parent = location.parent_id && ids.has(location.parent_id) ? location.parent_id : null;
    const list = children.get(parent) ?? [];
    list.push(location);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.code.localeCompare(b.code));

  const out: TreeEntry<L>[] = [];
  const placed = new Set<string>();
  const visit = (location: L, depth: number, prefix: string) => {
    if (placed.has(location.id)) return;
    placed.add(location.id);
    const path = prefix ? `${prefix} / ${location.code}` : location.code;
    out.push({ location, depth, path });
    for (const child of children.get(location.id) ?? []) visit(child, depth + 1, path);
  };
  for (const root of children.get(null) ?? []) visit(root, 0, '');
  // Locations only reachable through a cycle: shown as roots.
  for (const location of locations) visit(location, 0, '');
  return out;
}

/** A location's label in a list of choices: its path of codes and its name. */
export function locationLabel<L extends LocationLike>(entry: TreeEntry<L>): string {
  return `${entry.path} — ${entry.location.name}`;
}

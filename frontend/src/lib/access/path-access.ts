/**
 * Path matching for the server's `allowedPaths` (docs/adr/0005), the same rule
 * the server's Casbin `pathUnder` function applies: case-insensitive, a trailing
 * slash ignored, a path matches an allowed path when it equals it or lies below
 * it on a `/` boundary, and `/` matches only `/`.
 */

/** Lower-cases, drops trailing slashes; the empty path becomes `/`. */
export function normalizePath(path: string): string {
  const trimmed = path.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** True when `path` equals `allowed` or lies below it on a `/` boundary. */
export function pathUnder(path: string, allowed: string): boolean {
  const p = normalizePath(path);
  const a = normalizePath(allowed);
  if (a === '/') return p === '/';
  return p === a || p.startsWith(`${a}/`);
}

/** True when some entry of `allowedPaths` lets the user open `path`. */
export function isPathAllowed(path: string, allowedPaths: readonly string[]): boolean {
  return allowedPaths.some((allowed) => pathUnder(path, allowed));
}

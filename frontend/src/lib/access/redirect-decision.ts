import { paths } from '@/config/paths';
import { isPathAllowed, pathUnder } from './path-access';

/**
 * The one redirect decision for every guard (spec §2, §4, §6). Guards collect
 * the facts, call this, and do what it says; no guard has rules of its own.
 *
 * The role table is NOT here: the server sends `allowedPaths` for the signed-in
 * user and this function only matches against it.
 */
export interface RedirectFacts {
  /** Current location pathname. */
  pathname: string;
  /** Current location search (`?a=b`), kept in the sign-in redirect. */
  search?: string;
  /** The CSRF token found in local storage (the persisted auth state), if any. */
  storedCsrfToken: string | null | undefined;
  /** The signed-in user, as far as the client knows. */
  user: { role?: string | null; clientId?: string | null } | null | undefined;
  /** Route prefixes the server lets this user open. */
  allowedPaths: readonly string[];
  /** Set when the route belongs to a client-scoped area (`/clientA/...`). */
  clientArea?: { clientId: string; roles: readonly string[] } | null;
  /** On the sign-in page: the page that was asked for before signing in. */
  redirectTo?: string | null;
  /** Where a signed-in user lands by default (their preference); `/` if unset. */
  landingPath?: string | null;
}

export type RedirectDecision =
  | { kind: 'allow'; resetAuth: boolean }
  | {
      kind: 'redirect';
      to: string;
      /** Clear the auth state before redirecting. */
      resetAuth: boolean;
      /** Why; shown nowhere, but handy in tests and logs. */
      reason: 'signed-in-on-auth-page' | 'no-csrf-token' | 'no-role' | 'client-area' | 'path';
    };

/** Pages under `/auth/` that a signed-in user may still see (the 404 page). */
const AUTH_PAGES_OPEN_TO_EVERYONE = [paths.auth.notFound.path];

function isAuthPath(pathname: string): boolean {
  return pathUnder(pathname, '/auth');
}

function sameId(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

export function decideRedirect(facts: RedirectFacts): RedirectDecision {
  const { pathname, search = '', storedCsrfToken, user, allowedPaths, clientArea } = facts;
  const landing =
    facts.landingPath && isPathAllowed(facts.landingPath, allowedPaths)
      ? facts.landingPath
      : paths.home.href();
  const signedIn = typeof storedCsrfToken === 'string' && storedCsrfToken.length > 0;

  if (isAuthPath(pathname)) {
    if (!signedIn) return { kind: 'allow', resetAuth: true };
    if (AUTH_PAGES_OPEN_TO_EVERYONE.some((p) => pathUnder(pathname, p))) {
      return { kind: 'allow', resetAuth: false };
    }
    return {
      kind: 'redirect',
      to: safeRedirectTarget(facts.redirectTo, landing),
      resetAuth: false,
      reason: 'signed-in-on-auth-page',
    };
  }

  if (!signedIn) {
    return {
      kind: 'redirect',
      to: paths.auth.login.href(`${pathname}${search}`),
      resetAuth: true,
      reason: 'no-csrf-token',
    };
  }

  const role = user?.role;
  if (typeof role !== 'string' || role.length === 0) {
    return {
      kind: 'redirect',
      to: paths.auth.login.href(`${pathname}${search}`),
      resetAuth: true,
      reason: 'no-role',
    };
  }

  if (clientArea) {
    const rightClient = sameId(user?.clientId, clientArea.clientId);
    const rightRole = clientArea.roles.includes(role);
    if (!rightClient || !rightRole) {
      return {
        kind: 'redirect',
        to: paths.unauthorized.href(),
        resetAuth: false,
        reason: 'client-area',
      };
    }
  }

  if (!isPathAllowed(pathname, allowedPaths)) {
    return { kind: 'redirect', to: paths.unauthorized.href(), resetAuth: false, reason: 'path' };
  }

  return { kind: 'allow', resetAuth: false };
}

/**
 * Where to go after signing in: the page that was asked for when it is a local
 * path outside `/auth/`, else the fallback. Open redirects are refused.
 */
export function safeRedirectTarget(requested: string | null | undefined, fallback: string): string {
  if (!requested || !requested.startsWith('/') || requested.startsWith('//')) return fallback;
  if (requested.includes('\\')) return fallback;
  if (isAuthPath(requested.split(/[?#]/)[0] ?? '')) return fallback;
  return requested;
}

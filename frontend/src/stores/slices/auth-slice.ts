import type { Preferences, SessionUser } from '@/lib/api/types';
import type { RequestStatus } from './request-slice';

/**
 * Who is signed in. `user` and `csrfToken` are persisted (spec §3); the
 * `allowedPaths` come from the server on every start and are never stored.
 */
export interface AuthState {
  user: SessionUser | null;
  csrfToken: string | null;
  /** Route prefixes the server lets this user open; empty until the session is loaded. */
  allowedPaths: string[];
  /** True once the server confirmed the session in this page load. */
  sessionChecked: boolean;
  /** The user's preferences (theme, landing page), kept on the server. */
  preferences: Preferences | null;
  status: RequestStatus;
  error: string | null;
}

export function initialAuthState(): AuthState {
  return {
    user: null,
    csrfToken: null,
    allowedPaths: [],
    sessionChecked: false,
    preferences: null,
    status: 'idle',
    error: null,
  };
}

/** The part of auth that survives a reload. */
export interface PersistedAuth {
  user: SessionUser | null;
  csrfToken: string | null;
}

/** Reads a persisted auth value defensively: anything malformed counts as signed out. */
export function parsePersistedAuth(value: unknown): PersistedAuth {
  if (typeof value !== 'object' || value === null) return { user: null, csrfToken: null };
  const { user, csrfToken } = value as Record<string, unknown>;
  const validUser = typeof user === 'object' && user !== null && !Array.isArray(user);
  return {
    user: validUser ? (user as SessionUser) : null,
    csrfToken: typeof csrfToken === 'string' && csrfToken.length > 0 ? csrfToken : null,
  };
}

import type {
  ModuleKey,
  PlanModule,
  Preferences,
  Role,
  SessionInfo,
  SessionUser,
} from '@/lib/api/types';
import type { RequestStatus, SetSlice } from '@/lib/slice';

/**
 * Who is signed in. `user` and `csrfToken` are persisted (spec §3); the
 * `allowedPaths`, `assignableRoles` and `modules` come from the server on every
 * start and are never stored.
 */
export interface AuthState {
  user: SessionUser | null;
  csrfToken: string | null;
  /** Route prefixes the server lets this user open; empty until the session is loaded. */
  allowedPaths: string[];
  /**
   * The roles this user may give the users they add, the default first (the
   * server's rule for their organisation); empty for those who may not.
   */
  assignableRoles: Role[];
  /** The plan modules of the user's organisation (none for platform admins); from the server. */
  modules: ModuleKey[];
  /** Every module a plan can have, with its name; from the server. */
  moduleCatalogue: PlanModule[];
  /** True once the server confirmed the session in this page load. */
  sessionChecked: boolean;
  /** The user's preferences (theme, landing page), kept on the server. */
  preferences: Preferences | null;
  status: RequestStatus;
  error: string | null;
}

export interface AuthSlice {
  auth: AuthState;
}

export interface AuthActions {
  setAuthStatus: (status: RequestStatus, error?: string | null) => void;
  /** After the server confirmed the session (start-up and after sign-in): user, token, paths, roles. */
  sessionLoaded: (session: SessionInfo) => void;
  preferencesLoaded: (preferences: Preferences) => void;
}

export function initialAuthSlice(): AuthSlice {
  return {
    auth: {
      user: null,
      csrfToken: null,
      allowedPaths: [],
      assignableRoles: [],
      modules: [],
      moduleCatalogue: [],
      sessionChecked: false,
      preferences: null,
      status: 'idle',
      error: null,
    },
  };
}

export function authActions(set: SetSlice<AuthSlice>): AuthActions {
  return {
    setAuthStatus: (status, error = null) => set((s) => ({ auth: { ...s.auth, status, error } })),

    sessionLoaded: (session) =>
      set((s) => ({
        auth: {
          ...s.auth,
          user: session.user,
          csrfToken: session.csrfToken,
          allowedPaths: [...session.allowedPaths],
          assignableRoles: [...session.assignableRoles],
          modules: [...session.modules],
          moduleCatalogue: [...session.moduleCatalogue],
          sessionChecked: true,
          status: 'succeeded',
          error: null,
        },
      })),

    preferencesLoaded: (preferences) => set((s) => ({ auth: { ...s.auth, preferences } })),
  };
}

/** The part of auth that survives a reload (spec §3): the user and the CSRF token. */
export interface PersistedAuth {
  user: SessionUser | null;
  csrfToken: string | null;
}

export function persistedAuth({ auth }: AuthSlice): PersistedAuth {
  return { user: auth.user, csrfToken: auth.csrfToken };
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

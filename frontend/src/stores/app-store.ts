import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { OrgUser, Preferences, SessionInfo } from '@/lib/api/types';
import {
  initialAuthState,
  parsePersistedAuth,
  type AuthState,
  type PersistedAuth,
} from './slices/auth-slice';
import {
  initialRequestState,
  requestFailed,
  requestSucceeded,
  startRequest,
  type RequestState,
  type RequestStatus,
} from './slices/request-slice';

/** localStorage key of the persisted state (spec §3). */
export const PERSIST_KEY = 'root';
/** How long the app waits for the persisted state before it carries on (spec §9). */
export const PERSIST_RESTORE_TIMEOUT_MS = 5000;

/**
 * The client state (spec §3). One store, one slice per area. Slices of modules
 * that a later issue builds hold `unknown` data until that module's endpoint
 * exists in openapi.yaml; they never hold made-up data.
 */
export interface AppData {
  auth: AuthState;
  brandscans: RequestState<unknown>;
  reviews: RequestState<unknown>;
  productJourney: RequestState<unknown>;
  traceability: RequestState<unknown>;
  products: RequestState<unknown>;
  adminScans: RequestState<unknown> & { activeBrandId: string | null };
  orders: RequestState<unknown>;
  sessions: RequestState<unknown>;
  /** The organisation's other accounts (All Users page). */
  users: RequestState<OrgUser[]>;
}

export type DataSliceName = Exclude<keyof AppData, 'auth'>;

export const DATA_SLICES: readonly DataSliceName[] = [
  'brandscans',
  'reviews',
  'productJourney',
  'traceability',
  'products',
  'adminScans',
  'orders',
  'sessions',
  'users',
];

/** Slices that show one key's data at a time and clear it when a new load starts. */
const CLEAR_ON_START: ReadonlySet<DataSliceName> = new Set(['productJourney', 'traceability']);

export interface AppActions {
  setAuthStatus: (status: RequestStatus, error?: string | null) => void;
  /** After the server confirmed the session (start-up and after sign-in): user, token, paths. */
  sessionLoaded: (session: SessionInfo) => void;
  preferencesLoaded: (preferences: Preferences) => void;
  startLoading: (slice: DataSliceName) => void;
  loadSucceeded: <N extends DataSliceName>(slice: N, data: AppData[N]['data']) => void;
  loadFailed: (slice: DataSliceName, error: string) => void;
  setActiveBrandId: (brandId: string | null) => void;
  addOrgUser: (user: OrgUser) => void;
  removeOrgUser: (id: OrgUser['id']) => void;
  /** Signs out locally: every slice back to its initial state, persisted state removed. */
  resetAll: () => void;
}

export type AppState = AppData & AppActions;

export function initialData(): AppData {
  return {
    auth: initialAuthState(),
    brandscans: initialRequestState<unknown>(null),
    reviews: initialRequestState<unknown>(null),
    productJourney: initialRequestState<unknown>(null),
    traceability: initialRequestState<unknown>(null),
    products: initialRequestState<unknown>(null),
    adminScans: { ...initialRequestState<unknown>(null), activeBrandId: null },
    orders: initialRequestState<unknown>(null),
    sessions: initialRequestState<unknown>(null),
    users: initialRequestState<OrgUser[]>([]),
  };
}

interface PersistedShape {
  auth: PersistedAuth;
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...initialData(),

      setAuthStatus: (status, error = null) => set((s) => ({ auth: { ...s.auth, status, error } })),

      sessionLoaded: (session) =>
        set((s) => ({
          auth: {
            ...s.auth,
            user: session.user,
            csrfToken: session.csrfToken,
            allowedPaths: [...session.allowedPaths],
            sessionChecked: true,
            status: 'succeeded',
            error: null,
          },
        })),

      preferencesLoaded: (preferences) => set((s) => ({ auth: { ...s.auth, preferences } })),

      startLoading: (slice) =>
        set((s) => ({
          [slice]: startRequest(s[slice], CLEAR_ON_START.has(slice) ? { clearData: null } : {}),
        })),

      loadSucceeded: (slice, data) =>
        set((s) => ({ [slice]: requestSucceeded(s[slice] as RequestState<typeof data>, data) })),

      loadFailed: (slice, error) => set((s) => ({ [slice]: requestFailed(s[slice], error) })),

      setActiveBrandId: (brandId) =>
        set((s) => ({ adminScans: { ...s.adminScans, activeBrandId: brandId } })),

      addOrgUser: (user) => set((s) => ({ users: { ...s.users, data: [...s.users.data, user] } })),

      removeOrgUser: (id) =>
        set((s) => ({ users: { ...s.users, data: s.users.data.filter((u) => u.id !== id) } })),

      resetAll: () => {
        set(initialData());
        useAppStore.persist.clearStorage();
      },
    }),
    {
      name: PERSIST_KEY,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      // Only auth's user and token are kept (spec §3): the rest is refetched.
      partialize: (s): PersistedShape => ({
        auth: { user: s.auth.user, csrfToken: s.auth.csrfToken },
      }),
      merge: (persisted, current) => {
        const auth = parsePersistedAuth((persisted as Partial<PersistedShape> | undefined)?.auth);
        return { ...current, auth: { ...current.auth, ...auth } };
      },
    },
  ),
);

/** The CSRF token as it is in local storage right now (another tab may have signed out). */
export function readStoredCsrfToken(storage: Storage = window.localStorage): string | null {
  const raw = storage.getItem(PERSIST_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { state?: Partial<PersistedShape> };
    return parsePersistedAuth(parsed.state?.auth).csrfToken;
  } catch {
    return null;
  }
}

/**
 * Resolves once the persisted state is restored, or after `timeoutMs` (then
 * the app carries on signed out rather than hanging on a slow storage).
 */
export function waitForRestore(
  timeoutMs = PERSIST_RESTORE_TIMEOUT_MS,
): Promise<'restored' | 'timeout'> {
  if (useAppStore.persist.hasHydrated()) return Promise.resolve('restored');
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe();
      resolve('timeout');
    }, timeoutMs);
    const unsubscribe = useAppStore.persist.onFinishHydration(() => {
      clearTimeout(timer);
      unsubscribe();
      resolve('restored');
    });
  });
}

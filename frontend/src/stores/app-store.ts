import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  authActions,
  initialAuthSlice,
  parsePersistedAuth,
  persistedAuth,
  type AuthActions,
  type AuthSlice,
  type PersistedAuth,
} from '@/features/auth/store/auth-slice';
import {
  adminScansActions,
  initialAdminScansSlice,
  type AdminScansActions,
  type AdminScansSlice,
} from '@/features/platform-admin/store/admin-scans-slice';
import {
  initialJourneySlices,
  JOURNEY_SLICES_CLEARED_ON_LOAD,
  type JourneySlices,
} from '@/features/journey/store/journey-slices';
import {
  initialProductsSlice,
  productsActions,
  type ProductsActions,
  type ProductsSlice,
} from '@/features/products/store/products-slice';
import {
  initialBrandScansSlice,
  type BrandScansSlice,
} from '@/features/scans/store/brandscans-slice';
import { initialConsumersSlice, type ConsumersSlice } from '@/features/scans/store/consumers-slice';
import {
  initialReviewsSlice,
  reviewsActions,
  type ReviewsActions,
  type ReviewsSlice,
} from '@/features/scans/store/reviews-slice';
import { initialSessionsSlice, type SessionsSlice } from '@/features/scans/store/sessions-slice';
import {
  initialUsersSlice,
  usersActions,
  type UsersActions,
  type UsersSlice,
} from '@/features/users/store/users-slice';
import { requestFailed, requestSucceeded, startRequest, type RequestState } from '@/lib/slice';
import { initialPlannedSlices, type PlannedSlices } from './planned-slices';

/** localStorage key of the persisted state (spec §3). */
export const PERSIST_KEY = 'root';
/** How long the app waits for the persisted state before it carries on (spec §9). */
export const PERSIST_RESTORE_TIMEOUT_MS = 5000;

/**
 * The client state (spec §3): one store, one slice per area. Each feature owns
 * its slice (`src/features/<name>/store/`: state, initial state, actions);
 * this file is the one place that composes them, adds the request lifecycle
 * every data slice shares, and persists auth.
 */
export type AppData = AuthSlice &
  BrandScansSlice &
  ReviewsSlice &
  PlannedSlices &
  SessionsSlice &
  ConsumersSlice &
  JourneySlices &
  AdminScansSlice &
  ProductsSlice &
  UsersSlice;

export type DataSliceName = Exclude<keyof AppData, 'auth'>;

/** The request lifecycle of every data slice. */
interface RequestActions {
  startLoading: (slice: DataSliceName) => void;
  loadSucceeded: <N extends DataSliceName>(slice: N, data: AppData[N]['data']) => void;
  loadFailed: (slice: DataSliceName, error: string) => void;
}

export type AppActions = AuthActions &
  ReviewsActions &
  AdminScansActions &
  ProductsActions &
  UsersActions &
  RequestActions & {
    /** Signs out locally: every slice back to its initial state, persisted state removed. */
    resetAll: () => void;
  };

export type AppState = AppData & AppActions;

export function initialData(): AppData {
  return {
    ...initialAuthSlice(),
    ...initialBrandScansSlice(),
    ...initialReviewsSlice(),
    ...initialPlannedSlices(),
    ...initialSessionsSlice(),
    ...initialConsumersSlice(),
    ...initialJourneySlices(),
    ...initialAdminScansSlice(),
    ...initialProductsSlice(),
    ...initialUsersSlice(),
  };
}

/** Every slice but auth, in the spec's order. */
export const DATA_SLICES: readonly DataSliceName[] = Object.keys(initialData()).filter(
  (name): name is DataSliceName => name !== 'auth',
);

interface PersistedShape {
  auth: PersistedAuth;
}

/** Slices that show one key's data at a time and clear it when a new load starts (spec §4). */
const clearedOnLoad: ReadonlySet<string> = new Set<string>(JOURNEY_SLICES_CLEARED_ON_LOAD);

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...initialData(),
      ...authActions(set),
      ...reviewsActions(set),
      ...adminScansActions(set),
      ...productsActions(set),
      ...usersActions(set),

      startLoading: (slice) =>
        set((s) => ({
          [slice]: startRequest(s[slice], clearedOnLoad.has(slice) ? { clearData: null } : {}),
        })),

      loadSucceeded: (slice, data) =>
        set((s) => ({ [slice]: requestSucceeded(s[slice] as RequestState<typeof data>, data) })),

      loadFailed: (slice, error) => set((s) => ({ [slice]: requestFailed(s[slice], error) })),

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
      partialize: (s): PersistedShape => ({ auth: persistedAuth(s) }),
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

/**
 * What every slice of the store is built from. A feature defines its slice in
 * `src/features/<name>/store/` with these; `src/stores/app-store.ts` composes
 * the slices into the one store.
 */

/** Every data slice moves through these (spec §4). */
export type RequestStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface RequestState<T> {
  status: RequestStatus;
  data: T;
  error: string | null;
}

export function initialRequestState<T>(data: T): RequestState<T> {
  return { status: 'idle', data, error: null };
}

/**
 * Marks a slice as loading. Slices that show data for one key at a time
 * (product journey, traceability) drop the previous key's data first (spec §4).
 */
export function startRequest<S extends RequestState<unknown>>(
  slice: S,
  options: { clearData?: S['data'] } = {},
): S {
  return {
    ...slice,
    status: 'loading',
    error: null,
    ...('clearData' in options ? { data: options.clearData } : {}),
  };
}

export function requestSucceeded<S extends RequestState<unknown>>(slice: S, data: S['data']): S {
  return { ...slice, status: 'succeeded', data, error: null };
}

export function requestFailed<S extends RequestState<unknown>>(slice: S, error: string): S {
  return { ...slice, status: 'failed', error };
}

/**
 * The store's `set`, as a slice sees it: it reads and changes only its own
 * keys. The composed store's `set` fits this type for every slice it holds.
 */
export type SetSlice<S> = (update: (state: S) => Partial<S>) => void;

import { useAppStore } from '@/stores/app-store';
import { api, type ApiClient } from './client';
import type { components } from './schema';

/** The body of every error answer, `{"error", "code"}` (docs/adr/0006), as the contract types it. */
export type ErrorBody = components['schemas']['ErrorBody'];

/** What people see when a call never got an answer (spec §8). */
export const NETWORK_ERROR_MESSAGE = 'A network error occurred. Please check your connection.';

/**
 * How a call to the server ended. A failure always carries a `message` a
 * person can read: the server's own (`ErrorBody.error`), the network message,
 * or the caller's fallback.
 */
export type ApiResult<T> =
  | { ok: true; data: T }
  /** No answer: offline, DNS, connection refused, aborted. */
  | { ok: false; kind: 'network'; message: string }
  /** The server answered with an error status; `body` is its envelope when it sent one. */
  | { ok: false; kind: 'status'; status: number; body: ErrorBody | null; message: string }
  /** Anything else (an unreadable answer, a time-out). */
  | { ok: false; kind: 'unexpected'; message: string };

export type ApiFailure = Extract<ApiResult<unknown>, { ok: false }>;

/** What an openapi-fetch call resolves to, for any operation. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

type SessionEndedListener = () => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/** Lets the app react (a toast, say) when the server ends the session. */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Reads an error envelope from whatever openapi-fetch handed back, without trusting it. */
function readErrorBody(value: unknown): ErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { error, code } = value as Record<string, unknown>;
  if (typeof error !== 'string' && typeof code !== 'string') return null;
  return {
    error: typeof error === 'string' ? error : '',
    code: typeof code === 'string' ? code : '',
  };
}

/** True when a call never got an answer (offline, DNS, connection refused, aborted). */
function isNetworkError(error: unknown): boolean {
  return (
    error instanceof TypeError || (error instanceof DOMException && error.name === 'AbortError')
  );
}

/**
 * Any answer with code `unauthenticated` means the server no longer knows this
 * session: sign out locally, and the guards send the person to the login page.
 * Exported for the few calls whose spec names other answers that end the
 * session (the product list: a 400 saying 'unauthenticated', spec §8).
 */
export function endSession() {
  const wasSignedIn = useAppStore.getState().auth.csrfToken !== null;
  useAppStore.getState().resetAll();
  if (wasSignedIn) sessionEndedListeners.forEach((listener) => listener());
}

/**
 * The one way the app calls the server:
 *
 *   const result = await callApi((api) => api.GET('/api/me'), 'Your profile could not be loaded.');
 *
 * It never throws. `fallback` is the message of a failure the server did not
 * explain.
 */
export async function callApi<T>(
  send: (client: ApiClient) => Promise<Answer<T>>,
  fallback = 'Something went wrong. Please try again.',
): Promise<ApiResult<T>> {
  let answer: Answer<T>;
  try {
    answer = await send(api);
  } catch (error) {
    return isNetworkError(error)
      ? { ok: false, kind: 'network', message: NETWORK_ERROR_MESSAGE }
      : { ok: false, kind: 'unexpected', message: fallback };
  }
  const { data, error, response } = answer;
  if (response.ok) return { ok: true, data: data as T };
  const body = readErrorBody(error);
  if (body?.code === 'unauthenticated') endSession();
  return {
    ok: false,
    kind: 'status',
    status: response.status,
    body,
    message: body?.error || fallback,
  };
}

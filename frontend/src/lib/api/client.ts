import createClient, { type Middleware } from 'openapi-fetch';
import { useAppStore } from '@/stores/app-store';
import type { paths } from './schema';
import { readProblem } from './problem';

/** Methods that change state and so need the CSRF token (ARCHITECTURE §5). */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Adds `x-csrf-token` from the auth state to every unsafe call. */
export const csrfMiddleware: Middleware = {
  onRequest({ request }) {
    if (UNSAFE_METHODS.has(request.method.toUpperCase())) {
      const token = useAppStore.getState().auth.csrfToken;
      if (token) request.headers.set('x-csrf-token', token);
    }
    return request;
  },
};

type SessionEndedListener = () => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/** Lets the app react (a toast, say) when the server ends the session. */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/**
 * Any answer with code `unauthenticated` means the server no longer knows this
 * session: sign out locally, and the guards send the person to the login page.
 */
export const sessionExpiryMiddleware: Middleware = {
  async onResponse({ response }) {
    if (response.status === 401 || response.status === 400) {
      const problem = await readProblem(response.clone());
      if (problem?.code === 'unauthenticated') {
        const wasSignedIn = useAppStore.getState().auth.csrfToken !== null;
        useAppStore.getState().resetAll();
        if (wasSignedIn) sessionEndedListeners.forEach((listener) => listener());
      }
    }
    return response;
  },
};

/** The one API client: same origin, cookies included. */
export const api = createClient<paths>({
  baseUrl: '/',
  credentials: 'include',
  // Looked up per call so tests can stub `fetch`.
  fetch: (request: Request) => globalThis.fetch(request),
});
api.use(csrfMiddleware, sessionExpiryMiddleware);

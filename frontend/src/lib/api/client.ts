import createClient, { type Middleware } from 'openapi-fetch';
import { useAppStore } from '@/stores/app-store';
import type { paths } from './schema';

/** Methods that change state and so need the CSRF token (docs/adr/0004). */
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

/**
 * The one API client: same origin, cookies included. Features do not use it
 * directly: they call the server through `callApi` (./call-api.ts), which
 * turns every answer into an `ApiResult`.
 */
export const api = createClient<paths>({
  baseUrl: '/',
  credentials: 'include',
  // Looked up per call so tests can stub `fetch`.
  fetch: (request: Request) => globalThis.fetch(request),
});
api.use(csrfMiddleware);

export type ApiClient = typeof api;

import { json, mockApi, networkDown } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { DATA_SLICES, PERSIST_KEY, initialData, useAppStore } from '@/stores/app-store';
import { restoreSession, signIn, signOut } from './auth-api';

beforeEach(() => {
  useAppStore.setState(initialData());
  window.localStorage.clear();
});

describe('signOut', () => {
  it('calls the server with the token, then resets every slice and the persisted state', async () => {
    signInAs(adminSession);
    useAppStore
      .getState()
      .loadSucceeded('users', [{ id: 'x', name: 'X', email: 'x@y.z', role: 'worker' }]);
    useAppStore.getState().setActiveBrandId('acme');
    const { calls } = mockApi({ 'POST /api/auth/logout': () => json(204) });
    await signOut();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    const fresh = initialData();
    for (const name of ['auth', ...DATA_SLICES] as const) {
      expect(useAppStore.getState()[name]).toEqual(fresh[name]);
    }
    expect(window.localStorage.getItem(PERSIST_KEY)).toBeNull();
  });

  it('signs out locally even when the server cannot be reached', async () => {
    signInAs(adminSession);
    mockApi({ 'POST /api/auth/logout': () => networkDown() });
    await signOut();
    expect(useAppStore.getState().auth.user).toBeNull();
  });
});

describe('restoreSession', () => {
  it('asks nothing without a stored token', async () => {
    const { calls } = mockApi({});
    await expect(restoreSession()).resolves.toBe('signed-out');
    expect(calls).toHaveLength(0);
  });

  it('confirms a stored session and loads the allowed paths and the roles to assign', async () => {
    window.localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({
        state: { auth: { user: adminSession.user, csrfToken: 'old' } },
        version: 1,
      }),
    );
    await useAppStore.persist.rehydrate();
    mockApi({
      'GET /api/auth/session': () => json(200, adminSession),
      'GET /api/me/preferences': () => json(200, { theme: 'dark', landingPage: '/' }),
    });
    await expect(restoreSession()).resolves.toBe('ok');
    const { auth } = useAppStore.getState();
    expect(auth.allowedPaths).toEqual(adminSession.allowedPaths);
    expect(auth.assignableRoles).toEqual(['worker', 'manager']);
    expect(auth.csrfToken).toBe('csrf-test-token');
    expect(auth.sessionChecked).toBe(true);
  });

  it('signs out when the server no longer knows the session', async () => {
    signInAs(adminSession);
    mockApi({
      'GET /api/auth/session': () =>
        json(401, { error: 'Sign in first.', code: 'unauthenticated' }),
    });
    await expect(restoreSession()).resolves.toBe('signed-out');
    expect(useAppStore.getState().auth.csrfToken).toBeNull();
    expect(window.localStorage.getItem(PERSIST_KEY)).toBeNull();
  });

  it('reports an unreachable server without signing out', async () => {
    signInAs(adminSession);
    mockApi({ 'GET /api/auth/session': () => networkDown() });
    await expect(restoreSession()).resolves.toBe('unreachable');
    expect(useAppStore.getState().auth.csrfToken).toBe('csrf-test-token');
  });
});

describe('signIn', () => {
  it.each([
    [
      429,
      { error: 'Too many attempts. Try again in a minute.', code: 'too_many_attempts' },
      'Too many attempts. Try again in a minute.',
    ],
    [
      400,
      { error: 'Enter a valid email address.', code: 'invalid_input' },
      'Enter a valid email address.',
    ],
    [
      500,
      { error: 'Internal error', code: 'internal' },
      'Signing in failed on our side. Please try again in a moment.',
    ],
  ])('on %i says %o', async (status, body, message) => {
    mockApi({ 'POST /api/auth/login': () => json(status, body) });
    await expect(signIn('a@b.c', 'pw')).resolves.toEqual({ ok: false, message });
    expect(useAppStore.getState().auth.status).toBe('failed');
  });

  it('on a network failure says so', async () => {
    mockApi({ 'POST /api/auth/login': () => networkDown() });
    await expect(signIn('a@b.c', 'pw')).resolves.toEqual({
      ok: false,
      message: 'A network error occurred. Please check your connection.',
    });
  });
});

import { json, mockApi, networkDown } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { PERSIST_KEY, useAppStore } from '@/stores/app-store';
import { NETWORK_ERROR_MESSAGE, callApi, onSessionEnded } from './call-api';

describe('callApi', () => {
  it('passes the data of a successful answer through', async () => {
    mockApi({ 'GET /api/me/preferences': () => json(200, { theme: 'dark', landingPage: '/' }) });
    await expect(callApi((api) => api.GET('/api/me/preferences'), 'fallback')).resolves.toEqual({
      ok: true,
      data: { theme: 'dark', landingPage: '/' },
    });
  });

  it("maps an error answer to its status, the contract's error body and the server's message", async () => {
    mockApi({ 'GET /api/organisation': () => json(403, { error: 'No.', code: 'forbidden' }) });
    await expect(callApi((api) => api.GET('/api/organisation'), 'fallback')).resolves.toEqual({
      ok: false,
      kind: 'status',
      status: 403,
      body: { error: 'No.', code: 'forbidden' },
      message: 'No.',
    });
  });

  it('uses the fallback message when the server does not explain', async () => {
    mockApi({ 'GET /api/organisation': () => new Response('Bad gateway', { status: 502 }) });
    await expect(callApi((api) => api.GET('/api/organisation'), 'fallback')).resolves.toEqual({
      ok: false,
      kind: 'status',
      status: 502,
      body: null,
      message: 'fallback',
    });
  });

  it('says so when there is no answer', async () => {
    mockApi({ 'GET /api/organisation': () => networkDown() });
    await expect(callApi((api) => api.GET('/api/organisation'), 'fallback')).resolves.toEqual({
      ok: false,
      kind: 'network',
      message: NETWORK_ERROR_MESSAGE,
    });
    expect(NETWORK_ERROR_MESSAGE).toBe('A network error occurred. Please check your connection.');
  });

  it('uses the fallback message for an answer it cannot read', async () => {
    mockApi({
      'GET /api/organisation': () =>
        new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    await expect(callApi((api) => api.GET('/api/organisation'), 'fallback')).resolves.toEqual({
      ok: false,
      kind: 'unexpected',
      message: 'fallback',
    });
  });

  it('signs out locally on any "unauthenticated" answer and tells listeners', async () => {
    signInAs(adminSession);
    expect(window.localStorage.getItem(PERSIST_KEY)).not.toBeNull();
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    mockApi({
      'GET /api/me': () => json(401, { error: 'Sign in first.', code: 'unauthenticated' }),
    });
    await callApi((api) => api.GET('/api/me'));
    stop();
    expect(useAppStore.getState().auth.user).toBeNull();
    expect(useAppStore.getState().auth.csrfToken).toBeNull();
    expect(window.localStorage.getItem(PERSIST_KEY)).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('keeps the session on other errors', async () => {
    signInAs(adminSession);
    mockApi({
      'POST /api/auth/login': () =>
        json(401, { error: 'Invalid email or password.', code: 'invalid_credentials' }),
      'GET /api/organisation': () => json(403, { error: 'No.', code: 'forbidden' }),
    });
    await callApi((api) => api.POST('/api/auth/login', { body: { email: 'a', password: 'b' } }));
    await callApi((api) => api.GET('/api/organisation'));
    expect(useAppStore.getState().auth.csrfToken).toBe('csrf-test-token');
  });
});

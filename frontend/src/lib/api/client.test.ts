import { json, mockApi } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { PERSIST_KEY, useAppStore } from '@/stores/app-store';
import { api, onSessionEnded } from './client';

describe('API client', () => {
  it('sends cookies and adds x-csrf-token to unsafe methods only', async () => {
    signInAs(adminSession);
    const { calls, fetchMock } = mockApi({
      'GET /api/me': () => json(200, {}),
      'POST /api/auth/logout': () => json(204),
      'PUT /api/me/password': () => json(204),
      'PATCH /api/client-auth': () => json(200, { ok: true }),
    });
    await api.GET('/api/me');
    await api.POST('/api/auth/logout');
    await api.PUT('/api/me/password', { body: { currentPassword: 'a', newPassword: 'b' } });
    await api.PATCH('/api/client-auth', {
      body: { action: 'resetorguserpassword', email: 'a@b.c', new_password: 'x' },
    });
    expect(calls.map((c) => [c.method, c.headers.get('x-csrf-token')])).toEqual([
      ['GET', null],
      ['POST', 'csrf-test-token'],
      ['PUT', 'csrf-test-token'],
      ['PATCH', 'csrf-test-token'],
    ]);
    const first = fetchMock.mock.calls[0]![0] as Request;
    expect(first.credentials).toBe('include');
    expect(new URL(first.url).pathname).toBe('/api/me');
  });

  it('signs out locally on any "unauthenticated" answer and tells listeners', async () => {
    signInAs(adminSession);
    expect(window.localStorage.getItem(PERSIST_KEY)).not.toBeNull();
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    mockApi({
      'GET /api/me': () => json(401, { error: 'Sign in first.', code: 'unauthenticated' }),
    });
    await api.GET('/api/me');
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
    await api.POST('/api/auth/login', { body: { email: 'a', password: 'b' } });
    await api.GET('/api/organisation');
    expect(useAppStore.getState().auth.csrfToken).toBe('csrf-test-token');
  });
});

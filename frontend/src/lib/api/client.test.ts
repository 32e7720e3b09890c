import { json, mockApi } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { api } from './client';

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
});

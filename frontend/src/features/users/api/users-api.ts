import { callApi } from '@/lib/api/call-api';
import type { OrgUser, RequestBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { SERVER_USER_LIMIT_ERROR, userMessages } from '../messages';

type AddUserBody = Extract<RequestBody<'/api/client-auth', 'post'>, { action: 'adduser' }>;
export type NewUser = Omit<AddUserBody, 'action'>;
export type NewUserRole = NonNullable<NewUser['role']>;

/** Loads the organisation's other accounts into the `users` slice. */
export async function loadOrgUsers(): Promise<void> {
  useAppStore.getState().startLoading('users');
  const result = await callApi(
    (api) => api.GET('/api/account-info', { params: { query: { action: 'otheraccountinfo' } } }),
    'The list of users could not be loaded.',
  );
  if (result.ok) useAppStore.getState().loadSucceeded('users', result.data);
  else useAppStore.getState().loadFailed('users', result.message);
}

export type AddUserOutcome =
  | { kind: 'added'; user: OrgUser }
  | { kind: 'limit' }
  | { kind: 'forbidden' }
  /** `detail` is the server's own explanation (a taken email, a short password). */
  | { kind: 'failed'; detail: string | null }
  | { kind: 'network' };

/** The toast for each outcome (spec §8). */
export function addUserMessage(outcome: AddUserOutcome): string {
  switch (outcome.kind) {
    case 'added':
      return userMessages.added;
    case 'limit':
      return userMessages.limitReached;
    case 'forbidden':
      return userMessages.forbidden;
    case 'failed':
      return userMessages.unexpected;
    case 'network':
      return userMessages.network;
  }
}

export async function addOrgUser(user: NewUser): Promise<AddUserOutcome> {
  const result = await callApi((api) =>
    api.POST('/api/client-auth', { body: { action: 'adduser', ...user } }),
  );
  if (result.ok) {
    const added = result.data as OrgUser;
    useAppStore.getState().addOrgUser(added);
    return { kind: 'added', user: added };
  }
  if (result.kind === 'network') return { kind: 'network' };
  if (result.kind === 'unexpected') return { kind: 'failed', detail: null };
  const { status, body } = result;
  // 403 role_not_allowed: a role this organisation does not have; the server says which.
  if (status === 403 && body?.code !== 'role_not_allowed') {
    const limit = body?.code === 'user_limit' || body?.error === SERVER_USER_LIMIT_ERROR;
    return { kind: limit ? 'limit' : 'forbidden' };
  }
  return { kind: 'failed', detail: body?.error || null };
}

/** Deletes an account; on success it leaves the list at once (spec §4). */
export async function removeOrgUser(id: OrgUser['id']): Promise<boolean> {
  const result = await callApi((api) =>
    api.POST('/api/client-auth', { body: { action: 'removeuser', user_id: id } }),
  );
  if (result.ok) useAppStore.getState().removeOrgUser(id);
  return result.ok;
}

/** Sets a new password for an account of the organisation. */
export async function resetOrgUserPassword(email: string, newPassword: string): Promise<boolean> {
  const result = await callApi((api) =>
    api.PATCH('/api/client-auth', {
      body: { action: 'resetorguserpassword', email, new_password: newPassword },
    }),
  );
  return result.ok;
}

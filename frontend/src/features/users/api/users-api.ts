import { api } from '@/lib/api/client';
import { asProblem, isNetworkError } from '@/lib/api/problem';
import type { OrgUser, RequestBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { SERVER_USER_LIMIT_ERROR, userMessages } from '../messages';

type AddUserBody = Extract<RequestBody<'/api/client-auth', 'post'>, { action: 'adduser' }>;
export type NewUser = Omit<AddUserBody, 'action'>;
export type NewUserRole = NonNullable<NewUser['role']>;

/** Loads the organisation's other accounts into the `users` slice. */
export async function loadOrgUsers(): Promise<void> {
  const store = useAppStore.getState();
  store.startLoading('users');
  try {
    const { data, error } = await api.GET('/api/account-info', {
      params: { query: { action: 'otheraccountinfo' } },
    });
    if (data) {
      useAppStore.getState().loadSucceeded('users', data);
    } else {
      useAppStore
        .getState()
        .loadFailed('users', asProblem(error)?.error || 'The list of users could not be loaded.');
    }
  } catch (err) {
    useAppStore
      .getState()
      .loadFailed(
        'users',
        isNetworkError(err) ? userMessages.network : 'The list of users could not be loaded.',
      );
  }
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
  try {
    const { data, error, response } = await api.POST('/api/client-auth', {
      body: { action: 'adduser', ...user },
    });
    if (data && response.ok) {
      const added = data as OrgUser;
      useAppStore.getState().addOrgUser(added);
      return { kind: 'added', user: added };
    }
    const problem = asProblem(error);
    if (response.status === 403) {
      const limit = problem?.code === 'user_limit' || problem?.error === SERVER_USER_LIMIT_ERROR;
      return { kind: limit ? 'limit' : 'forbidden' };
    }
    return { kind: 'failed', detail: problem?.error || null };
  } catch (err) {
    return isNetworkError(err) ? { kind: 'network' } : { kind: 'failed', detail: null };
  }
}

/** Deletes an account; on success it leaves the list at once (spec §4). */
export async function removeOrgUser(id: OrgUser['id']): Promise<boolean> {
  try {
    const { response } = await api.POST('/api/client-auth', {
      body: { action: 'removeuser', user_id: id },
    });
    if (!response.ok) return false;
    useAppStore.getState().removeOrgUser(id);
    return true;
  } catch {
    return false;
  }
}

/** Sets a new password for an account of the organisation. */
export async function resetOrgUserPassword(email: string, newPassword: string): Promise<boolean> {
  try {
    const { response } = await api.PATCH('/api/client-auth', {
      body: { action: 'resetorguserpassword', email, new_password: newPassword },
    });
    return response.ok;
  } catch {
    return false;
  }
}

import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE as NETWORK, asProblem, isNetworkError } from '@/lib/api/problem';
import type { ResponseBody } from '@/lib/api/types';

export type Me = ResponseBody<'/api/me', 'get', 200>;

export type Loaded<T> = { ok: true; data: T } | { ok: false; message: string };

export async function fetchMe(): Promise<Loaded<Me>> {
  try {
    const { data, error } = await api.GET('/api/me');
    if (data) return { ok: true, data };
    return { ok: false, message: asProblem(error)?.error || 'Your profile could not be loaded.' };
  } catch (err) {
    return {
      ok: false,
      message: isNetworkError(err) ? NETWORK : 'Your profile could not be loaded.',
    };
  }
}

export type ChangeOutcome = { ok: true } | { ok: false; message: string };

export async function changeOwnPassword(
  currentPassword: string,
  newPassword: string,
): Promise<ChangeOutcome> {
  try {
    const { response, error } = await api.PUT('/api/me/password', {
      body: { currentPassword, newPassword },
    });
    if (response.ok) return { ok: true };
    return {
      ok: false,
      message: asProblem(error)?.error || 'Your password could not be changed. Please try again.',
    };
  } catch (err) {
    return {
      ok: false,
      message: isNetworkError(err)
        ? NETWORK
        : 'Your password could not be changed. Please try again.',
    };
  }
}

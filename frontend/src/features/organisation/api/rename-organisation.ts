import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE, asProblem, isNetworkError } from '@/lib/api/problem';
import type { Organisation } from './organisation-api';

export type RenameOutcome =
  { ok: true; organisation: Organisation } | { ok: false; message: string };

/** Renames the organisation (organisation admins). */
export async function renameOrganisation(name: string): Promise<RenameOutcome> {
  try {
    const { data, error } = await api.PUT('/api/organisation', { body: { name } });
    if (data) return { ok: true, organisation: data };
    return { ok: false, message: asProblem(error)?.error || 'The name could not be saved.' };
  } catch (err) {
    return {
      ok: false,
      message: isNetworkError(err) ? NETWORK_ERROR_MESSAGE : 'The name could not be saved.',
    };
  }
}

import { useEffect, useState } from 'react';
import { api } from '@/lib/api/client';
import { NETWORK_ERROR_MESSAGE, asProblem, isNetworkError } from '@/lib/api/problem';
import type { ResponseBody } from '@/lib/api/types';

export type Organisation = ResponseBody<'/api/organisation', 'get', 200>;
export type UsageRow = Organisation['usage'][number];

type State =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'succeeded'; organisation: Organisation };

async function fetchOrganisation(): Promise<State> {
  try {
    const { data, error } = await api.GET('/api/organisation');
    if (data) return { status: 'succeeded', organisation: data };
    return {
      status: 'failed',
      message: asProblem(error)?.error || 'Your organisation’s details could not be loaded.',
    };
  } catch (err) {
    return {
      status: 'failed',
      message: isNetworkError(err)
        ? NETWORK_ERROR_MESSAGE
        : 'Your organisation’s details could not be loaded.',
    };
  }
}

/** The signed-in user's organisation: limits, usage and modules. */
export function useOrganisation(): State & {
  reload: () => void;
  replace: (organisation: Organisation) => void;
} {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let active = true;
    void fetchOrganisation().then((next) => {
      if (active) setState(next);
    });
    return () => {
      active = false;
    };
  }, [attempt]);
  return {
    ...state,
    reload: () => {
      setState({ status: 'loading' });
      setAttempt((a) => a + 1);
    },
    replace: (organisation) => setState({ status: 'succeeded', organisation }),
  };
}

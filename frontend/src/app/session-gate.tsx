import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { FailurePage } from '@/components/errors/failure-page';
import { Splash } from '@/components/layout/splash';
import { loadSession, restoreSession } from '@/features/auth/api/auth-api';
import { onSessionEnded } from '@/lib/api/call-api';
import { PERSIST_KEY, useAppStore } from '@/stores/app-store';

type GateState = 'pending' | 'ready' | 'unreachable';

/**
 * Holds the app until the persisted sign-in is restored and confirmed by the
 * server (or found missing), so no guard decides on half the facts.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<GateState>('pending');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void restoreSession().then((outcome) => {
      if (!cancelled) setState(outcome === 'unreachable' ? 'unreachable' : 'ready');
    });
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  useEffect(
    () =>
      onSessionEnded(() => {
        toast.info('Your session has ended. Please sign in again.', { toastId: 'session-ended' });
      }),
    [],
  );

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== PERSIST_KEY && event.key !== null) return;
      const before = useAppStore.getState().auth.csrfToken;
      void Promise.resolve(useAppStore.persist.rehydrate()).then(() => {
        const after = useAppStore.getState().auth.csrfToken;
        if (after && after !== before) void loadSession();
      });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  if (state === 'pending') return <Splash />;
  if (state === 'unreachable') {
    return (
      <FailurePage
        title="brandops cannot reach its server"
        actions={
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              setState('pending');
              setAttempt((a) => a + 1);
            }}
          >
            Try again
          </button>
        }
      >
        <p>
          Check your connection. If it is fine, the server may be restarting; try again in a moment.
        </p>
      </FailurePage>
    );
  }
  return children;
}

import { useEffect, useEffectEvent, useState } from 'react';
import type { ApiResult } from '@/lib/api/call-api';

/**
 * Loads something from the server when the component mounts, and again on
 * `reload` (the "Try again" of an error). `result` is null while loading.
 * `update` changes the loaded data after a change the server confirmed.
 */
export function useApiResult<T>(load: () => Promise<ApiResult<T>>) {
  const [result, setResult] = useState<ApiResult<T> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const start = useEffectEvent(load);

  useEffect(() => {
    let active = true;
    void start().then((next) => {
      if (active) setResult(next);
    });
    return () => {
      active = false;
    };
  }, [attempt]);

  return {
    result,
    reload: () => {
      setResult(null);
      setAttempt((a) => a + 1);
    },
    update: (change: (data: T) => T) =>
      setResult((current) => (current?.ok ? { ok: true, data: change(current.data) } : current)),
  };
}

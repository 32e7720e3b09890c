import type { ReactNode } from 'react';
import type { ApiResult } from '@/lib/api/call-api';
import { ErrorAlert } from './alert';
import { LoadingBlock } from './spinner';

/**
 * What a page section shows for something loaded from the server: a loading
 * line (`result` null), the failure's message (with "Try again" when
 * `onRetry` is given), or `children` with the data.
 */
export function ApiResultView<T>({
  result,
  onRetry,
  loadingLabel,
  children,
}: {
  result: ApiResult<T> | null;
  onRetry?: () => void;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}) {
  if (result === null) return <LoadingBlock label={loadingLabel} />;
  if (!result.ok) return <ErrorAlert onRetry={onRetry}>{result.message}</ErrorAlert>;
  return children(result.data);
}

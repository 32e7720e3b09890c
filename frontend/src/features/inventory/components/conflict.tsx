import { ErrorAlert } from '@/components/ui/alert';
import type { ApiFailure } from '@/lib/api/call-api';

/** The server's refusals the stock forms name, with a title a person sees at once. */
const CONFLICT_TITLES: Record<string, string> = {
  insufficient_stock: 'Not enough stock.',
  lot_not_available: 'This lot cannot be used.',
};

export interface Conflict {
  title: string;
  message: string;
}

/** The conflict a failure is (a 409 `insufficient_stock` or `lot_not_available`), or null. */
export function conflictOf(failure: ApiFailure): Conflict | null {
  if (failure.kind !== 'status' || failure.status !== 409) return null;
  const title = CONFLICT_TITLES[failure.body?.code ?? ''];
  return title ? { title, message: failure.message } : null;
}

/** A refusal of the stock: its title, then the server's words (which name the lot and what is available). */
export function ConflictAlert({ conflict }: { conflict: Conflict }) {
  return (
    <ErrorAlert>
      <strong>{conflict.title}</strong> {conflict.message} Nothing was changed.
    </ErrorAlert>
  );
}

import { useState } from 'react';

/**
 * One `Idempotency-Key` per submission (the Stripe pattern the stock API
 * follows): sending the same form again, unchanged, after a failure (a
 * network error, a double click that got through) sends the same key, so the
 * server answers the first result and never moves stock twice; a changed
 * form, or the next submission after a success, gets a new key.
 */
export class SubmissionKeys {
  private current: { key: string; fingerprint: string } | null = null;

  constructor(private readonly newKey: () => string = () => crypto.randomUUID()) {}

  /** The key for sending `body` now. */
  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (this.current?.fingerprint !== fingerprint) {
      this.current = { key: this.newKey(), fingerprint };
    }
    return this.current.key;
  }

  /** The submission succeeded: the next one is a new submission. */
  done() {
    this.current = null;
  }
}

/** A form's `SubmissionKeys`, kept across renders. */
export function useSubmissionKeys(): SubmissionKeys {
  const [keys] = useState(() => new SubmissionKeys());
  return keys;
}

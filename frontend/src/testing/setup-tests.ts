import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Node's Request rejects relative URLs; the app calls `/api/...` on its own
// origin, so resolve them against jsdom's location as a browser would.
const NodeRequest = globalThis.Request;
class SameOriginRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.origin) : input, init);
  }
}
globalThis.Request = SameOriginRequest as typeof Request;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom does not scroll.
window.scrollTo = () => {};

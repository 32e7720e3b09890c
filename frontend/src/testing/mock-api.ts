import { vi } from 'vitest';

/** A recorded call, with its JSON body already read. */
export interface RecordedCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/** A JSON response, as the server would send it. */
export function json(status: number, body?: unknown): Response {
  if (body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Rejects like `fetch` does when the network is down. */
export function networkDown(): never {
  throw new TypeError('Failed to fetch');
}

/**
 * Stubs `fetch` with handlers keyed by `"METHOD /path"` (query ignored).
 * Unknown calls fail the test loudly. Returns the list of calls made.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: RecordedCall = {
      method: request.method,
      url,
      headers: request.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    const handler = handlers[`${request.method} ${url.pathname}`];
    if (!handler) throw new Error(`unexpected call ${request.method} ${url.pathname}`);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

import { vi } from 'vitest';
import type { Product } from './api/products-api';

/** A product for tests, with `overrides`. */
export function product(overrides: Partial<Product> & { id: string }): Product {
  return {
    product_name: `Product ${overrides.id}`,
    skuid: `SKU-${overrides.id}`,
    gtin: '04006381333931',
    category: '',
    image_urls: [],
    metadata: {},
    attributes: [],
    product_description: '',
    requires_inspection: false,
    unit: 'each',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A call as the server would receive it, with its body as raw text (CSV, multipart). */
export interface RawCall {
  method: string;
  url: URL;
  headers: Headers;
  text: string;
}

/**
 * Stubs `fetch` like `mockApi` (handlers by `"METHOD /path"`), but keeps the
 * body as text: for the calls that do not send JSON.
 */
export function mockRawApi(handlers: Record<string, (call: RawCall) => Response>) {
  const calls: RawCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const call: RawCall = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      text: await request.text(),
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.url.pathname}`];
    if (!handler) throw new Error(`unexpected call ${call.method} ${call.url.pathname}`);
    return handler(call);
  });
  return { calls };
}

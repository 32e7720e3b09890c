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
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

import type {
  CodeJob,
  CodeJobList,
  Design,
  LabelTemplate,
  PrintJob,
  PrintJobList,
  ProductList,
} from './api/labels-api';

export const PRODUCT_ID = '6f1c1f7e-8a39-4c55-9d55-3f0f3a1e2b10';

export function design(overrides: Partial<Design> = {}): Design {
  return {
    width_mm: 70,
    height_mm: 37,
    symbology: 'qr',
    sheet: 'a4_3x8',
    fields: { product_name: true, gtin: true, lot: true, expiry: true, serial: true },
    font_size_pt: 7,
    margin_mm: 2,
    ...overrides,
  };
}

/** A label template for tests, with `overrides`. */
export function template(overrides: Partial<LabelTemplate> & { id: string }): LabelTemplate {
  return {
    name: `Template ${overrides.id}`,
    design: design(),
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** A code job for tests, with `overrides`. */
export function codeJob(overrides: Partial<CodeJob> & { id: string }): CodeJob {
  return {
    product_id: PRODUCT_ID,
    status: 'done',
    quantity: 30,
    generated: 30,
    gtin: '04006381333931',
    resolver_base: 'https://id.example.com',
    created_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

export function codeJobList(jobs: CodeJob[]): CodeJobList {
  return { jobs, code_quota: 5_000_000, qr_codes_remaining: 4_000_000 };
}

export function productList(products: { id: string; product_name: string }[]): ProductList {
  return {
    products: products.map((p) => ({
      ...p,
      skuid: 'SKU-1',
      gtin: '04006381333931',
      category: '',
      image_urls: [],
      metadata: {},
      product_description: '',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    })) as unknown as ProductList['products'],
    max_products: 100,
    added_products: products.length,
  };
}

/** A print job for tests, with `overrides`. */
export function printJob(overrides: Partial<PrintJob> & { id: string }): PrintJob {
  return {
    code_job_id: 'code-done',
    template_id: 'tpl-1',
    template_name: 'Shelf label',
    format: 'pdf',
    status: 'done',
    total: 30,
    printed: 30,
    output_bytes: 14_540,
    created_at: '2026-03-02T10:00:00Z',
    finished_at: '2026-03-02T10:00:05Z',
    ...overrides,
  };
}

export function printJobList(jobs: PrintJob[]): PrintJobList {
  return { jobs };
}

/** The bytes of the `n`th preview PNG of a test (its signature, then `n`). */
export function pngBytes(n: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, n]);
}

/** The `data:` URL the page shows for the `n`th preview PNG. */
export function pngUrl(n: number): string {
  return `data:image/png;base64,${btoa(String.fromCharCode(...pngBytes(n)))}`;
}

/** The `n`th PNG answer of the preview operation. */
export function png(n = 1): Response {
  return new Response(pngBytes(n), {
    status: 200,
    headers: { 'content-type': 'image/png' },
  });
}

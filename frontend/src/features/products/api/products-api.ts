import { callApi, endSession, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { productMessages } from '../messages';
import type { ProductListData } from '../store/products-slice';

export type Product = ResponseBody<'/api/products/{id}', 'get', 200>;
export type ProductList = ResponseBody<'/api/product-handler', 'get', 200>;
export type NewProduct = RequestBody<'/api/products', 'post'>;
export type ProductChange = RequestBody<'/api/products/{id}', 'patch'>;

function count(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * The list answer, read without trusting it (spec §7: "an array or a products
 * list"): max_products defaults to the number of items, added_products to 0 (§9).
 */
export function normaliseProductList(
  raw: ProductList | Product[] | null | undefined,
): ProductListData {
  const list = Array.isArray(raw) ? { products: raw } : (raw ?? {});
  const products = Array.isArray(list.products) ? list.products : [];
  const max = 'max_products' in list ? count(list.max_products) : null;
  const added = 'added_products' in list ? count(list.added_products) : null;
  return {
    products,
    maxProducts: max ?? products.length,
    addedProducts: added ?? 0,
    limitKnown: max !== null,
  };
}

/**
 * Loads the product list into the `products` slice. Any failure reads
 * 'Failed to fetch products'; an answer saying the session is gone (a 401,
 * or a 400 saying 'unauthenticated') signs out (spec §4, §8).
 */
export async function loadProducts(): Promise<void> {
  useAppStore.getState().startLoading('products');
  const result = await callApi(
    (api) => api.GET('/api/product-handler', { params: { query: { action: 'allproducts' } } }),
    productMessages.loadFailed,
  );
  if (result.ok) {
    useAppStore.getState().loadSucceeded('products', normaliseProductList(result.data));
    return;
  }
  if (result.kind === 'status') {
    const unauthenticated =
      result.status === 401 ||
      (result.status === 400 &&
        [result.body?.code, result.body?.error].some(
          (t) => t?.toLowerCase() === 'unauthenticated',
        ));
    // callApi has already signed out for code 'unauthenticated'.
    if (unauthenticated && useAppStore.getState().auth.csrfToken !== null) endSession();
  }
  useAppStore.getState().loadFailed('products', productMessages.loadFailed);
}

export function fetchProduct(id: string): Promise<ApiResult<Product>> {
  return callApi(
    (api) => api.GET('/api/products/{id}', { params: { path: { id } } }),
    productMessages.notLoaded,
  );
}

export async function createProduct(body: NewProduct): Promise<ApiResult<Product>> {
  const result = await callApi(
    (api) => api.POST('/api/products', { body }),
    productMessages.notSaved,
  );
  if (result.ok) useAppStore.getState().productSaved(result.data);
  return result;
}

export async function updateProduct(id: string, body: ProductChange): Promise<ApiResult<Product>> {
  const result = await callApi(
    (api) => api.PATCH('/api/products/{id}', { params: { path: { id } }, body }),
    productMessages.notSaved,
  );
  if (result.ok) useAppStore.getState().productSaved(result.data);
  return result;
}

/** Archives a product; on success it leaves the list at once. */
export async function archiveProduct(id: string): Promise<ApiResult<Product>> {
  const result = await callApi(
    (api) => api.DELETE('/api/products/{id}', { params: { path: { id } } }),
    productMessages.archiveFailed,
  );
  if (result.ok) useAppStore.getState().productArchived(id);
  return result;
}

export type ImportReport = ResponseBody<'/api/products/import', 'post', 200>;
export type ImportRefused = ResponseBody<'/api/products/import', 'post', 422>;
export type RowError = ImportReport['errors'][number];

/** Adds `file` (already checked: a PNG, JPEG or WebP of at most 5 MB) to a product's images. */
export function addProductImage(id: string, file: File): Promise<ApiResult<Product>> {
  return callApi(
    (api) =>
      api.POST('/api/products/{id}/images', {
        params: { path: { id } },
        // The contract types the binary part as a string; the browser sends the file.
        body: { file: '' },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file);
          return form;
        },
      }),
    productMessages.imageNotAdded,
  );
}

/** Removes one image; `url` is one of the product's `image_urls`. */
export function removeProductImage(id: string, url: string): Promise<ApiResult<Product>> {
  const image = decodeURIComponent(url.split('/').pop() ?? '');
  return callApi(
    (api) => api.DELETE('/api/products/{id}/images/{image}', { params: { path: { id, image } } }),
    productMessages.imageNotRemoved,
  );
}

/**
 * Sends a CSV file to the import: a dry run (`apply` false) only checks it.
 * A refusal for its rows (422) comes back as `refused`, with every problem.
 */
export async function importProducts(
  csv: string,
  apply: boolean,
): Promise<{ result: ApiResult<ImportReport>; refused: ImportRefused | null }> {
  let refused: ImportRefused | null = null;
  const result = await callApi(async (api) => {
    const answer = await api.POST('/api/products/import', {
      params: { query: { dry_run: apply ? 'false' : 'true' } },
      body: csv,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'text/csv' },
    });
    if (answer.response.status === 422 && answer.error && 'errors' in answer.error)
      refused = answer.error;
    return answer;
  }, productMessages.importFailed);
  return { result, refused };
}

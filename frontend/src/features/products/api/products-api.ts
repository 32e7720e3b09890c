import { callApi, endSession, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { productMessages } from '../messages';
import { normaliseProductList } from '../product-list';

export type Product = ResponseBody<'/api/products/{id}', 'get', 200>;
export type ProductList = ResponseBody<'/api/product-handler', 'get', 200>;
export type NewProduct = RequestBody<'/api/products', 'post'>;
export type ProductChange = RequestBody<'/api/products/{id}', 'patch'>;

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

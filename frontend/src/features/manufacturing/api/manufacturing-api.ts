import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

/*
 * The manufacturing API (issue 23, `backend/src/manufacturing`): bills of
 * materials and manufacturing orders, and what the page needs of products
 * and locations. Every shape is looked up from the generated contract.
 */

export type Bom = ResponseBody<'/api/boms', 'post', 201>;
export type NewBom = RequestBody<'/api/boms', 'post'>;
export type Order = ResponseBody<'/api/manufacturing-orders', 'post', 201>;
export type NewOrder = RequestBody<'/api/manufacturing-orders', 'post'>;
export type OrderCompletion = RequestBody<'/api/manufacturing-orders/{id}/complete', 'post'>;
export type ProductChoice = ResponseBody<'/api/product-handler', 'get', 200>['products'][number];
export type LocationChoice = ResponseBody<'/api/locations', 'get', 200>['locations'][number];

export async function fetchProducts(): Promise<ApiResult<ProductChoice[]>> {
  const result = await callApi(
    (api) => api.GET('/api/product-handler', { params: { query: { action: 'allproducts' } } }),
    'The products could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.products } : result;
}

export async function fetchLocations(): Promise<ApiResult<LocationChoice[]>> {
  const result = await callApi(
    (api) => api.GET('/api/locations'),
    'The locations could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.locations } : result;
}

/** The BOM versions of one product, newest first. */
export async function fetchBoms(productId: string): Promise<ApiResult<Bom[]>> {
  const result = await callApi(
    (api) => api.GET('/api/boms', { params: { query: { product_id: productId } } }),
    'The bills of materials could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.boms } : result;
}

/** Creates the next BOM version of a product (admins and managers). */
export function createBom(body: NewBom): Promise<ApiResult<Bom>> {
  return callApi(
    (api) => api.POST('/api/boms', { body }),
    'The bill of materials could not be saved.',
  );
}

export async function fetchOrders(): Promise<ApiResult<Order[]>> {
  const result = await callApi(
    (api) => api.GET('/api/manufacturing-orders'),
    'The manufacturing orders could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.orders } : result;
}

/** One order, with the lots it consumed. */
export function fetchOrder(id: string): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.GET('/api/manufacturing-orders/{id}', { params: { path: { id } } }),
    'The manufacturing order could not be loaded.',
  );
}

export function createOrder(body: NewOrder): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.POST('/api/manufacturing-orders', { body }),
    'The manufacturing order could not be created.',
  );
}

export function startOrder(id: string): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.POST('/api/manufacturing-orders/{id}/start', { params: { path: { id } } }),
    'The order could not be started.',
  );
}

export function cancelOrder(id: string): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.POST('/api/manufacturing-orders/{id}/cancel', { params: { path: { id } } }),
    'The order could not be cancelled.',
  );
}

/** Completes an order: consumes its components and produces its output lot, all or nothing. */
export function completeOrder(id: string, body: OrderCompletion): Promise<ApiResult<Order>> {
  return callApi(
    (api) =>
      api.POST('/api/manufacturing-orders/{id}/complete', { params: { path: { id } }, body }),
    'The order could not be completed.',
  );
}

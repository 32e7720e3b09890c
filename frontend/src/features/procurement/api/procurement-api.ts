import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { operations } from '@/lib/api/schema';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

/*
 * The procurement API (issue 23, `backend/src/procurement`), the suppliers
 * (`backend/src/parties`), and what the page needs of the products and the
 * locations. Every shape is looked up from the generated contract.
 */

export type Supplier = ResponseBody<'/api/suppliers', 'post', 201>;
export type NewSupplier = RequestBody<'/api/suppliers', 'post'>;
export type OrderList = ResponseBody<'/api/purchase-orders', 'get', 200>;
export type Order = OrderList['orders'][number];
export type OrderStatus = Order['status'];
export type OrderDetail = ResponseBody<'/api/purchase-orders/{id}', 'get', 200>;
export type OrderLine = OrderDetail['lines'][number];
export type Receipt = OrderDetail['receipts'][number];
export type NewOrder = RequestBody<'/api/purchase-orders', 'post'>;
export type NewReceipt = RequestBody<'/api/purchase-orders/{id}/receipts', 'post'>;
export type Bill = ResponseBody<'/api/supplier-bills', 'post', 201>;
export type Mismatch = Bill['mismatches'][number];
export type NewBill = RequestBody<'/api/supplier-bills', 'post'>;
export type BillApproval = RequestBody<'/api/supplier-bills/{id}/approve', 'post'>;
export type OrderFilters = NonNullable<operations['listPurchaseOrders']['parameters']['query']>;
export type ProductChoice = ResponseBody<'/api/product-handler', 'get', 200>['products'][number];
export type Location = ResponseBody<'/api/locations', 'get', 200>['locations'][number];

export async function fetchSuppliers(): Promise<ApiResult<Supplier[]>> {
  const result = await callApi(
    (api) => api.GET('/api/suppliers'),
    'The suppliers could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.suppliers } : result;
}

/** Adds a supplier (admins and managers). */
export function createSupplier(body: NewSupplier): Promise<ApiResult<Supplier>> {
  return callApi((api) => api.POST('/api/suppliers', { body }), 'The supplier could not be added.');
}

export async function fetchProducts(): Promise<ApiResult<ProductChoice[]>> {
  const result = await callApi(
    (api) => api.GET('/api/product-handler', { params: { query: { action: 'allproducts' } } }),
    'The products could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.products } : result;
}

export async function fetchLocations(): Promise<ApiResult<Location[]>> {
  const result = await callApi(
    (api) => api.GET('/api/locations'),
    'The locations could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.locations } : result;
}

/** The purchase orders, newest first, in one status when given. */
export async function fetchOrders(status: OrderStatus | ''): Promise<ApiResult<Order[]>> {
  const query: OrderFilters = status ? { status } : {};
  const result = await callApi(
    (api) => api.GET('/api/purchase-orders', { params: { query } }),
    'The purchase orders could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.orders } : result;
}

/** One order with its lines, receipts and bills. */
export function fetchOrder(id: string): Promise<ApiResult<OrderDetail>> {
  return callApi(
    (api) => api.GET('/api/purchase-orders/{id}', { params: { path: { id } } }),
    'The purchase order could not be loaded.',
  );
}

/** Creates a draft order (admins and managers). */
export function createOrder(body: NewOrder): Promise<ApiResult<OrderDetail>> {
  return callApi(
    (api) => api.POST('/api/purchase-orders', { body }),
    'The purchase order could not be created.',
  );
}

export function confirmOrder(id: string): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.POST('/api/purchase-orders/{id}/confirm', { params: { path: { id } } }),
    'The purchase order could not be confirmed.',
  );
}

export function cancelOrder(id: string): Promise<ApiResult<Order>> {
  return callApi(
    (api) => api.POST('/api/purchase-orders/{id}/cancel', { params: { path: { id } } }),
    'The purchase order could not be cancelled.',
  );
}

/**
 * Receives goods against an order. `key` is the submission's
 * `Idempotency-Key`: sent again with the same body, the server answers the
 * first receipt and receives nothing twice.
 */
export function receiveGoods(
  id: string,
  body: NewReceipt,
  key: string,
): Promise<ApiResult<Receipt>> {
  return callApi(
    (api) =>
      api.POST('/api/purchase-orders/{id}/receipts', {
        params: { path: { id }, header: { 'Idempotency-Key': key } },
        body,
      }),
    'The goods could not be received.',
  );
}

export async function fetchBills(orderId: string): Promise<ApiResult<Bill[]>> {
  const result = await callApi(
    (api) => api.GET('/api/supplier-bills', { params: { query: { purchase_order_id: orderId } } }),
    'The bills could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.bills } : result;
}

/** Records a supplier's bill; the answer carries its three-way match. */
export function createBill(body: NewBill): Promise<ApiResult<Bill>> {
  return callApi(
    (api) => api.POST('/api/supplier-bills', { body }),
    'The bill could not be recorded.',
  );
}

/** Approves a bill; a mismatched one needs an admin and a reason. */
export function approveBill(id: string, body: BillApproval): Promise<ApiResult<Bill>> {
  return callApi(
    (api) => api.POST('/api/supplier-bills/{id}/approve', { params: { path: { id } }, body }),
    'The bill could not be approved.',
  );
}

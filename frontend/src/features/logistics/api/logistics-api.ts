import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

/*
 * The logistics API (issue 23, `backend/src/logistics`), the customers of the
 * parties API (`backend/src/parties`), and what the shipment form needs of the
 * products, locations and lots. Every shape is looked up from the generated
 * contract.
 */

export type Shipment = ResponseBody<'/api/shipments/{id}', 'get', 200>;
export type ShipmentLine = Shipment['lines'][number];
export type NewShipment = RequestBody<'/api/shipments', 'post'>;
export type Customer = ResponseBody<'/api/customers', 'post', 201>;
export type NewCustomer = RequestBody<'/api/customers', 'post'>;
export type ProductChoice = ResponseBody<'/api/product-handler', 'get', 200>['products'][number];
export type LocationChoice = ResponseBody<'/api/locations', 'get', 200>['locations'][number];
export type LotChoice = ResponseBody<'/api/lots', 'get', 200>['lots'][number];

export async function fetchShipments(): Promise<ApiResult<Shipment[]>> {
  const result = await callApi(
    (api) => api.GET('/api/shipments'),
    'The shipments could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.shipments } : result;
}

/** Creates a draft and reserves its stock (first expiry first out unless a lot is named). */
export function createShipment(body: NewShipment): Promise<ApiResult<Shipment>> {
  return callApi(
    (api) => api.POST('/api/shipments', { body }),
    'The shipment could not be created.',
  );
}

export type ShipmentAction = 'ship' | 'deliver' | 'cancel';

/** Ships, delivers or cancels shipment `id`. */
export function actOnShipment(id: string, action: ShipmentAction): Promise<ApiResult<Shipment>> {
  const failed = {
    ship: 'The shipment could not be shipped.',
    deliver: 'The delivery could not be recorded.',
    cancel: 'The shipment could not be cancelled.',
  }[action];
  const params = { path: { id } };
  return callApi((api) => {
    switch (action) {
      case 'ship':
        return api.POST('/api/shipments/{id}/ship', { params });
      case 'deliver':
        return api.POST('/api/shipments/{id}/deliver', { params });
      case 'cancel':
        return api.POST('/api/shipments/{id}/cancel', { params });
    }
  }, failed);
}

/** The SSCC labels of a shipped shipment (a PDF, one page per package). */
export function labelUrl(id: string): string {
  return `/api/shipments/${encodeURIComponent(id)}/label.pdf`;
}

export async function fetchCustomers(): Promise<ApiResult<Customer[]>> {
  const result = await callApi(
    (api) => api.GET('/api/customers'),
    'The customers could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.customers } : result;
}

/** Adds a customer (admins and managers). */
export function createCustomer(body: NewCustomer): Promise<ApiResult<Customer>> {
  return callApi((api) => api.POST('/api/customers', { body }), 'The customer could not be added.');
}

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

/** The product's released lots, for a line that names its lot. */
export async function fetchLots(productId: string): Promise<ApiResult<LotChoice[]>> {
  const result = await callApi(
    (api) =>
      api.GET('/api/lots', { params: { query: { product_id: productId, status: 'released' } } }),
    'The lots could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.lots } : result;
}

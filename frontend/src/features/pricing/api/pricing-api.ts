import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { operations } from '@/lib/api/schema';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

/*
 * The pricing API (issue 24, `backend/src/pricing`), and what the page needs
 * of the products and the customers. Every shape is looked up from the
 * generated contract; money stays a decimal string from the server to the
 * screen.
 */

export type PriceList = ResponseBody<'/api/price-lists', 'post', 201>;
export type PriceListItem = PriceList['items'][number];
export type NewPriceList = RequestBody<'/api/price-lists', 'post'>;
export type Tiering = NewPriceList['tiering'];
export type Quote = ResponseBody<'/api/prices/quote', 'get', 200>;
export type QuoteLine = Quote['lines'][number];
export type QuoteQuery = operations['quotePrice']['parameters']['query'];
export type ProductChoice = ResponseBody<'/api/product-handler', 'get', 200>['products'][number];
export type Customer = ResponseBody<'/api/customers', 'post', 201>;

export async function fetchPriceLists(): Promise<ApiResult<PriceList[]>> {
  const result = await callApi(
    (api) => api.GET('/api/price-lists'),
    'The price lists could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.price_lists } : result;
}

/** Creates a price list (admins and managers). */
export function createPriceList(body: NewPriceList): Promise<ApiResult<PriceList>> {
  return callApi(
    (api) => api.POST('/api/price-lists', { body }),
    'The price list could not be created.',
  );
}

/** Replaces a price list whole (admins and managers). */
export function updatePriceList(id: string, body: NewPriceList): Promise<ApiResult<PriceList>> {
  return callApi(
    (api) => api.PUT('/api/price-lists/{id}', { params: { path: { id } }, body }),
    'The price list could not be saved.',
  );
}

/** What a quantity of a product costs (a customer's group list first, then the default list). */
export function fetchQuote(query: QuoteQuery): Promise<ApiResult<Quote>> {
  return callApi(
    (api) => api.GET('/api/prices/quote', { params: { query } }),
    'The price could not be quoted.',
  );
}

export async function fetchProducts(): Promise<ApiResult<ProductChoice[]>> {
  const result = await callApi(
    (api) => api.GET('/api/product-handler', { params: { query: { action: 'allproducts' } } }),
    'The products could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.products } : result;
}

export async function fetchCustomers(): Promise<ApiResult<Customer[]>> {
  const result = await callApi(
    (api) => api.GET('/api/customers'),
    'The customers could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.customers } : result;
}

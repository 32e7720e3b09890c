import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { operations } from '@/lib/api/schema';
import type { RequestBody, ResponseBody } from '@/lib/api/types';

/*
 * The inventory API (issue 22, `backend/src/inventory`), and what the pages
 * need of the products and of the lot register (`backend/src/lots`). Every
 * shape is looked up from the generated contract.
 */

export type Location = ResponseBody<'/api/locations', 'post', 201>;
export type NewLocation = RequestBody<'/api/locations', 'post'>;
export type StockList = ResponseBody<'/api/stock', 'get', 200>;
export type StockRow = StockList['stock'][number];
export type StockFilters = NonNullable<operations['listStock']['parameters']['query']>;
export type MovePage = ResponseBody<'/api/stock-moves', 'get', 200>;
export type Move = MovePage['moves'][number];
export type MoveBody = RequestBody<'/api/stock-moves', 'post'>;
export type Reservation = ResponseBody<'/api/stock-reservations', 'post', 201>;
export type ReservationLine = Reservation['lines'][number];
export type NewReservation = RequestBody<'/api/stock-reservations', 'post'>;
export type ReorderRule = ResponseBody<'/api/reorder-rules/{product_id}', 'put', 200>;
export type ReorderRuleBody = RequestBody<'/api/reorder-rules/{product_id}', 'put'>;
export type ReplenishmentRow = ResponseBody<'/api/replenishment', 'get', 200>['lines'][number];
export type ValuationRow = ResponseBody<'/api/stock/valuation', 'get', 200>['products'][number];
/** What the pages need of a product: the product list's entries. */
export type ProductChoice = ResponseBody<'/api/product-handler', 'get', 200>['products'][number];

/** The ledger's filters (the cursor apart). */
export type MoveFilters = Omit<
  NonNullable<operations['listStockMoves']['parameters']['query']>,
  'cursor'
>;

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

/** Adds a location (admins and managers). */
export function createLocation(body: NewLocation): Promise<ApiResult<Location>> {
  return callApi((api) => api.POST('/api/locations', { body }), 'The location could not be added.');
}

export function fetchStock(filters: StockFilters): Promise<ApiResult<StockList>> {
  return callApi(
    (api) => api.GET('/api/stock', { params: { query: filters } }),
    'The stock could not be loaded.',
  );
}

/** One page of the ledger, newest first; `cursor` is the page before's `next_cursor`. */
export function fetchMoves(
  filters: MoveFilters,
  cursor: string | null,
): Promise<ApiResult<MovePage>> {
  const query = cursor === null ? filters : { ...filters, cursor: Number(cursor) };
  return callApi(
    (api) => api.GET('/api/stock-moves', { params: { query } }),
    'The ledger could not be loaded.',
  );
}

/**
 * Records a move. `key` is the submission's `Idempotency-Key`: sent again
 * with the same body, the server answers the first result and moves nothing
 * twice.
 */
export function createMove(body: MoveBody, key: string): Promise<ApiResult<Move>> {
  return callApi(
    (api) => api.POST('/api/stock-moves', { params: { header: { 'Idempotency-Key': key } }, body }),
    'The move could not be recorded.',
  );
}

export async function fetchReservations(): Promise<ApiResult<Reservation[]>> {
  const result = await callApi(
    (api) => api.GET('/api/stock-reservations'),
    'The reservations could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.reservations } : result;
}

/**
 * Reserves stock first expiry first out; the answer names the lots it took.
 * `key` is the submission's `Idempotency-Key` (as for `createMove`).
 */
export function createReservation(
  body: NewReservation,
  key: string,
): Promise<ApiResult<Reservation>> {
  return callApi(
    (api) =>
      api.POST('/api/stock-reservations', { params: { header: { 'Idempotency-Key': key } }, body }),
    'The stock could not be reserved.',
  );
}

export function releaseReservation(id: string): Promise<ApiResult<Reservation>> {
  return callApi(
    (api) => api.DELETE('/api/stock-reservations/{id}', { params: { path: { id } } }),
    'The reservation could not be released.',
  );
}

export async function fetchReorderRules(): Promise<ApiResult<ReorderRule[]>> {
  const result = await callApi(
    (api) => api.GET('/api/reorder-rules'),
    'The reorder rules could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.rules } : result;
}

/** Sets a product's reorder rule, replacing the one it had (admins and managers). */
export function putReorderRule(
  productId: string,
  body: ReorderRuleBody,
): Promise<ApiResult<ReorderRule>> {
  return callApi(
    (api) =>
      api.PUT('/api/reorder-rules/{product_id}', {
        params: { path: { product_id: productId } },
        body,
      }),
    'The reorder rule could not be saved.',
  );
}

export async function fetchReplenishment(): Promise<ApiResult<ReplenishmentRow[]>> {
  const result = await callApi(
    (api) => api.GET('/api/replenishment'),
    'The replenishment could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.lines } : result;
}

export async function fetchValuation(): Promise<ApiResult<ValuationRow[]>> {
  const result = await callApi(
    (api) => api.GET('/api/stock/valuation'),
    'The valuation could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.products } : result;
}

export type Lot = ResponseBody<'/api/lots', 'post', 201>;
export type NewLot = RequestBody<'/api/lots', 'post'>;

/** The product's lots (the lot register's, newest first). */
export async function fetchLots(productId: string): Promise<ApiResult<Lot[]>> {
  const result = await callApi(
    (api) => api.GET('/api/lots', { params: { query: { product_id: productId } } }),
    'The lots could not be loaded.',
  );
  return result.ok ? { ok: true, data: result.data.lots } : result;
}

/** Registers a lot of a product (admins and managers). */
export function createLot(body: NewLot): Promise<ApiResult<Lot>> {
  return callApi((api) => api.POST('/api/lots', { body }), 'The lot could not be registered.');
}

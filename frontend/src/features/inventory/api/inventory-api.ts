import { callApi, type ApiResult } from '@/lib/api/call-api';
import type { MoveBody } from '../move-form';

// PROVISIONAL: replaced by the generated types once the inventory API is merged.
export interface Location {
  id: string;
  code: string;
  name: string;
  kind: string;
  parent_id?: string | null;
  path: string;
}
export interface Lot {
  id: string;
  product_id: string;
  number: string;
  manufactured_on?: string | null;
  expires_on?: string | null;
  status: string;
}
export interface StockRow {
  product_id: string;
  product_name: string;
  location_id: string;
  location_code: string;
  lot_id: string;
  lot_number: string;
  expires_on?: string | null;
  lot_status: string;
  on_hand: string;
  reserved: string;
  available: string;
}
export interface Move {
  id: string;
  product_id: string;
  product_name?: string;
  lot_id: string;
  lot_number: string;
  quantity: string;
  from_location_id?: string | null;
  to_location_id?: string | null;
  reason: string;
  unit_cost?: string | null;
  currency?: string | null;
  reference?: string | null;
  created_at: string;
}
export interface MovePage {
  moves: Move[];
  next_cursor?: string | null;
}
export interface ReservationLine {
  location_id: string;
  lot_id: string;
  lot_number: string;
  expires_on?: string | null;
  quantity: string;
}
export interface Reservation {
  id: string;
  product_id: string;
  product_name: string;
  location_id?: string | null;
  quantity: string;
  reference: string;
  status: string;
  created_at: string;
  lines: ReservationLine[];
}
export interface ReorderRule {
  product_id: string;
  product_name: string;
  location_id: string;
  location_code: string;
  min_quantity: string;
  max_quantity: string;
}
export interface ReplenishmentRow {
  product_id: string;
  product_name: string;
  location_id: string;
  location_code: string;
  min_quantity: string;
  max_quantity: string;
  on_hand: string;
  reserved: string;
  suggested_quantity: string;
}
export interface ValuationRow {
  product_id: string;
  product_name: string;
  on_hand: string;
  values: { currency: string; quantity: string; value: string }[];
  unvalued_quantity: string;
}
export interface ProductChoice {
  id: string;
  product_name: string;
}
export type NewLocation = { code: string; name: string; kind: string; parent_id?: string };
export type NewLot = {
  product_id: string;
  number: string;
  manufactured_on?: string;
  expires_on?: string;
};
export type NewReservation = {
  product_id: string;
  quantity: string;
  location_id?: string;
  reference: string;
};
export type ReorderRuleBody = { location_id: string; min_quantity: string; max_quantity: string };
export type { MoveBody };

export interface MoveFilters {
  product_id?: string;
  lot_id?: string;
  location_id?: string;
  from?: string;
  to?: string;
}

export interface StockFilters {
  product_id?: string;
  location_id?: string;
}

declare function pending<T>(): Promise<ApiResult<T>>;
void callApi;

export const fetchProducts = (): Promise<ApiResult<ProductChoice[]>> => pending();
export const fetchLocations = (): Promise<ApiResult<Location[]>> => pending();
export const createLocation = (_b: NewLocation): Promise<ApiResult<Location>> => pending();
export const fetchLots = (_productId?: string): Promise<ApiResult<Lot[]>> => pending();
export const createLot = (_b: NewLot): Promise<ApiResult<Lot>> => pending();
export interface StockList {
  stock: StockRow[];
  more: boolean;
}
export const fetchStock = (_f: StockFilters): Promise<ApiResult<StockList>> => pending();
export const fetchMoves = (_f: MoveFilters, _cursor: string | null): Promise<ApiResult<MovePage>> =>
  pending();
export const createMove = (_b: MoveBody, _key: string): Promise<ApiResult<Move>> => pending();
export const fetchReservations = (): Promise<ApiResult<Reservation[]>> => pending();
export const createReservation = (_b: NewReservation): Promise<ApiResult<Reservation>> => pending();
export const releaseReservation = (_id: string): Promise<ApiResult<Reservation>> => pending();
export const fetchReorderRules = (): Promise<ApiResult<ReorderRule[]>> => pending();
export const putReorderRule = (
  _productId: string,
  _b: ReorderRuleBody,
): Promise<ApiResult<ReorderRule>> => pending();
export const fetchReplenishment = (): Promise<ApiResult<ReplenishmentRow[]>> => pending();
export const fetchValuation = (): Promise<ApiResult<ValuationRow[]>> => pending();

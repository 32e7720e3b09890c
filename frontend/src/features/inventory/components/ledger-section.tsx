import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDateTime } from '@/lib/format';
import { isDay } from '@/lib/validation';
import { fetchMoves, type Move, type MoveFilters, type MovePage } from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { REASON_RULES, type MoveReason } from '../move-form';
import { formatMoney, formatQuantity } from '../quantities';
import { locationOptions, productOptions } from './choices';
import { LotSelect } from './lot-select';

function reasonLabel(reason: string): string {
  return REASON_RULES[reason as MoveReason]?.label ?? reason;
}

function columns(catalogue: Catalogue): Column<Move>[] {
  return [
    { header: 'When', cell: (move) => formatDateTime(move.created_at) },
    { header: 'Kind', cell: (move) => reasonLabel(move.reason) },
    { header: 'Product', cell: (move) => catalogue.productName(move.product_id) },
    { header: 'Lot', cell: (move) => <span className="mono">{move.lot_number}</span> },
    { header: 'Quantity', className: 'num', cell: (move) => formatQuantity(move.quantity) },
    { header: 'From', cell: (move) => catalogue.locationPath(move.from_location_id) },
    { header: 'To', cell: (move) => catalogue.locationPath(move.to_location_id) },
    {
      header: 'Unit cost',
      className: 'num',
      cell: (move) =>
        move.unit_cost && move.currency ? formatMoney(move.unit_cost, move.currency) : '—',
    },
    { header: 'Reference', cell: (move) => move.reference ?? '—' },
  ];
}

/** The ledger's filters as the form holds them (days as typed). */
interface FilterValues {
  product_id: string;
  lot_id: string;
  location_id: string;
  from: string;
  to: string;
}

const NO_FILTERS: FilterValues = { product_id: '', lot_id: '', location_id: '', from: '', to: '' };

/** The filters the server is sent: only complete days, and only what is set. */
export function moveFilters(values: FilterValues): MoveFilters {
  const filters: MoveFilters = {};
  if (values.product_id) filters.product_id = values.product_id;
  if (values.product_id && values.lot_id) filters.lot_id = values.lot_id;
  if (values.location_id) filters.location_id = values.location_id;
  if (isDay(values.from)) filters.from = values.from;
  if (isDay(values.to)) filters.to = values.to;
  return filters;
}

/**
 * "Ledger": every move, newest first, filtered by product, lot, location
 * and day (a lot is chosen among the chosen product's); "Load more" fetches the next older page (keyset paging: the server's
 * cursor, so a move recorded meanwhile neither repeats nor hides a row).
 */
export function LedgerSection({ catalogue, version }: { catalogue: Catalogue; version: number }) {
  const [values, setValues] = useState<FilterValues>(NO_FILTERS);
  const filters = moveFilters(values);
  const set = (name: keyof FilterValues) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const rangeError =
    filters.from && filters.to && filters.to < filters.from
      ? 'The end day is before the start day.'
      : null;

  return (
    <CardSection title="Ledger">
      <div className="filters" role="group" aria-label="Filter the ledger">
        <SelectField
          label="Product"
          value={values.product_id}
          onChange={(e) =>
            setValues((current) => ({ ...current, product_id: e.target.value, lot_id: '' }))
          }
          options={productOptions(catalogue, 'All products')}
        />
        <LotSelect
          key={values.product_id}
          productId={values.product_id}
          value={values.lot_id}
          onChange={set('lot_id')}
          anyLabel="All lots"
        />
        <SelectField
          label="Location"
          value={values.location_id}
          onChange={(e) => set('location_id')(e.target.value)}
          options={locationOptions(catalogue, 'All locations')}
        />
        <TextField
          label="From day"
          type="date"
          value={values.from}
          onChange={(e) => set('from')(e.target.value)}
        />
        <TextField
          label="To day"
          type="date"
          value={values.to}
          onChange={(e) => set('to')(e.target.value)}
          error={rangeError}
        />
      </div>
      {rangeError ? null : (
        <MoveList
          key={`${version}|${JSON.stringify(filters)}`}
          catalogue={catalogue}
          filters={filters}
        />
      )}
    </CardSection>
  );
}

/** The moves for `filters`: the first page on mount, older ones on "Load more". */
function MoveList({ catalogue, filters }: { catalogue: Catalogue; filters: MoveFilters }) {
  const { result, reload } = useApiResult(() => fetchMoves(filters, null));
  const [older, setOlder] = useState<{ moves: Move[]; next: string | null } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function loadMore(first: MovePage) {
    const cursor = older ? older.next : (first.next_cursor ?? null);
    if (!cursor) return;
    setLoading(true);
    setError(null);
    const next = await fetchMoves(filters, cursor);
    setLoading(false);
    if (!next.ok) {
      setError(next.message);
      return;
    }
    setOlder((current) => ({
      moves: [...(current?.moves ?? []), ...next.data.moves],
      next: next.data.next_cursor ?? null,
    }));
  }

  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the ledger…">
      {(first) => {
        const moves = [...first.moves, ...(older?.moves ?? [])];
        const more = older ? older.next !== null : Boolean(first.next_cursor);
        return (
          <>
            <DataTable
              label="Stock moves, newest first"
              columns={columns(catalogue)}
              rows={moves}
              rowKey={(move) => move.id}
              empty={
                Object.keys(filters).length
                  ? 'No moves match these filters.'
                  : 'No moves yet: every receipt, transfer and shipment appears here.'
              }
            />
            {error ? <ErrorAlert onRetry={() => void loadMore(first)}>{error}</ErrorAlert> : null}
            {more ? (
              <div className="load-more">
                <Button variant="secondary" busy={loading} onClick={() => void loadMore(first)}>
                  Load more
                </Button>
              </div>
            ) : null}
          </>
        );
      }}
    </ApiResultView>
  );
}

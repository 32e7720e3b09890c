import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { SelectField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { fetchStock, type StockRow, type StockFilters } from '../api/inventory-api';
import type { Catalogue } from '../api/use-catalogue';
import { expiryState, today as todayOf } from '../expiry';
import { formatQuantity } from '../quantities';
import { locationOptions, productOptions } from './choices';
import { Expiry, LotStatusBadge } from './lot-badges';

function columns(catalogue: Catalogue, today: string): Column<StockRow>[] {
  return [
    { header: 'Product', cell: (row) => row.product_name },
    { header: 'Location', cell: (row) => catalogue.locationPath(row.location_id) },
    {
      header: 'Lot',
      cell: (row) => (
        <span className="lot-cell">
          <span className="mono">{row.lot_number}</span>
          <LotStatusBadge status={row.lot_status} />
        </span>
      ),
    },
    { header: 'Expires', cell: (row) => <Expiry expiresOn={row.expires_on} today={today} /> },
    { header: 'On hand', className: 'num', cell: (row) => formatQuantity(row.on_hand) },
    { header: 'Reserved', className: 'num', cell: (row) => formatQuantity(row.reserved) },
    { header: 'Available', className: 'num', cell: (row) => formatQuantity(row.available) },
  ];
}

/** How many lots with stock have expired, and how many expire within 30 days. */
export function expiryCounts(rows: readonly StockRow[], today: string) {
  const seen = new Map<string, string>();
  for (const row of rows) seen.set(row.lot_id, expiryState(row.expires_on, today).kind);
  const kinds = [...seen.values()];
  return {
    expired: kinds.filter((k) => k === 'expired').length,
    soon: kinds.filter((k) => k === 'soon').length,
  };
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * "Stock": on hand, reserved and available per product, location and lot,
 * with each lot's status and its expiry warning; filtered by product and
 * location. Loads again when `version` changes (after a move or a
 * reservation) or the filters do.
 */
export function StockSection({ catalogue, version }: { catalogue: Catalogue; version: number }) {
  const [filters, setFilters] = useState<StockFilters>({});
  return (
    <CardSection title="Stock">
      <div className="filters" role="group" aria-label="Filter the stock">
        <SelectField
          label="Product"
          value={filters.product_id ?? ''}
          onChange={(e) => setFilters((f) => ({ ...f, product_id: e.target.value || undefined }))}
          options={productOptions(catalogue, 'All products')}
        />
        <SelectField
          label="Location"
          value={filters.location_id ?? ''}
          onChange={(e) => setFilters((f) => ({ ...f, location_id: e.target.value || undefined }))}
          options={locationOptions(catalogue, 'All locations')}
        />
      </div>
      <StockTable
        key={`${version}|${filters.product_id ?? ''}|${filters.location_id ?? ''}`}
        catalogue={catalogue}
        filters={filters}
      />
    </CardSection>
  );
}

/** The stock for `filters`, loaded on mount (the section remounts it to load again). */
function StockTable({ catalogue, filters }: { catalogue: Catalogue; filters: StockFilters }) {
  const { result, reload } = useApiResult(() => fetchStock(filters));
  const today = todayOf();
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the stock…">
      {({ stock: rows, more }) => {
        const counts = expiryCounts(rows, today);
        return (
          <>
            {counts.expired || counts.soon ? (
              <p className="warnings">
                {counts.expired ? (
                  <span className="badge badge--danger">
                    {plural(counts.expired, 'lot has expired', 'lots have expired')}
                  </span>
                ) : null}
                {counts.soon ? (
                  <span className="badge badge--warning">
                    {plural(counts.soon, 'lot expires', 'lots expire')} within 30 days
                  </span>
                ) : null}
              </p>
            ) : null}
            <DataTable
              label="Stock by product, location and lot"
              columns={columns(catalogue, today)}
              rows={rows}
              rowKey={(row) => `${row.product_id}/${row.location_id}/${row.lot_id}`}
              empty={
                filters.product_id || filters.location_id
                  ? 'No stock matches these filters.'
                  : 'No stock yet: record a receipt to bring some in.'
              }
            />
            {more ? (
              <p className="muted" role="status">
                Only the first {rows.length} rows are shown: choose a product or a location to see
                the rest.
              </p>
            ) : null}
          </>
        );
      }}
    </ApiResultView>
  );
}

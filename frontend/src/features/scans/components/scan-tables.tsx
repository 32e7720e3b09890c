import { DataTable, type Column } from '@/components/ui/data-table';
import { formatNumber } from '@/lib/format';
import type { ConsumerDay, SessionDay } from '../audience';
import { longDay } from '../date-range';
import { UNKNOWN_PLACE, countryLabel, type Place } from '../places';
import type { DayScans, ProductScans } from '../scan-analytics';
import type { ScannedCode } from '../store/brandscans-slice';

const count = (n: number) => formatNumber(n);

const DAY_COLUMNS: readonly Column<DayScans>[] = [
  { header: 'Day', cell: (d) => longDay(d.day) },
  { header: 'Scans', className: 'num', cell: (d) => count(d.scans) },
  { header: 'First', className: 'num', cell: (d) => count(d.firstScans) },
  { header: 'Repeat', className: 'num', cell: (d) => count(d.repeatScans) },
  { header: 'Suspicious', className: 'num', cell: (d) => count(d.suspicious) },
];

export function DaysTable({ days }: { days: readonly DayScans[] }) {
  return (
    <DataTable label="Scans per day" columns={DAY_COLUMNS} rows={days} rowKey={(d) => d.day} />
  );
}

const PRODUCT_COLUMNS: readonly Column<ProductScans>[] = [
  {
    header: 'Product',
    cell: (p) => (
      <>
        {p.productName || 'Unnamed product'}
        {p.skuid ? (
          <>
            <br />
            <span className="muted">{p.skuid}</span>
          </>
        ) : null}
      </>
    ),
  },
  { header: 'Scans', className: 'num', cell: (p) => count(p.scans) },
];

export function ProductsTable({ products }: { products: readonly ProductScans[] }) {
  return (
    <DataTable
      label="Scans per product"
      columns={PRODUCT_COLUMNS}
      rows={products}
      rowKey={(p) => p.productId}
    />
  );
}

const FIRST_REPEAT_COLUMNS: readonly Column<{ kind: string; scans: number }>[] = [
  { header: 'Kind of scan', cell: (r) => r.kind },
  { header: 'Scans', className: 'num', cell: (r) => count(r.scans) },
];

export function FirstVsRepeatTable({ first, repeat }: { first: number; repeat: number }) {
  return (
    <DataTable
      label="First and repeat scans"
      columns={FIRST_REPEAT_COLUMNS}
      rows={[
        { kind: 'First scans', scans: first },
        { kind: 'Repeat scans', scans: repeat },
      ]}
      rowKey={(r) => r.kind}
    />
  );
}

const PLACE_COLUMNS: readonly Column<Place>[] = [
  { header: 'Country', cell: (p) => countryLabel(p) },
  { header: 'Region', cell: (p) => p.region || UNKNOWN_PLACE },
  { header: 'City', cell: (p) => p.city || UNKNOWN_PLACE },
  { header: 'Scans', className: 'num', cell: (p) => count(p.scans) },
];

/** Scans by country, region and city; "Unknown" where the place was not found. */
export function PlacesTable({ places }: { places: readonly Place[] }) {
  return (
    <DataTable
      label="Scans by place"
      columns={PLACE_COLUMNS}
      rows={places}
      rowKey={(p) => `${p.country}|${p.region}|${p.city}|${p.lat ?? ''}|${p.lon ?? ''}`}
      empty="No scans in this range."
    />
  );
}

/**
 * The most-scanned codes, with their product's name where it is known, their
 * distinct consumers and a flag on the suspicious ones; a code's button opens
 * its scan history.
 */
export function TopCodesTable({
  codes,
  productName,
  onOpen,
}: {
  codes: readonly ScannedCode[];
  productName: (productId: string) => string | null;
  /** Opens a code's history; without it (a platform admin's view) codes are plain text. */
  onOpen?: (id: string) => void;
}) {
  const columns: readonly Column<ScannedCode>[] = [
    {
      header: 'Code',
      cell: (c) =>
        onOpen ? (
          <button
            type="button"
            className="code-link"
            onClick={() => onOpen(c.id)}
            aria-label={`Scan history of code ${c.id}`}
          >
            <code>{c.id}</code>
          </button>
        ) : (
          <code>{c.id}</code>
        ),
    },
    {
      header: 'Product',
      cell: (c) =>
        productName(c.productId) ?? (
          <span className="muted">
            <span className="visually-hidden">Product id </span>
            <code>{c.productId || '—'}</code>
          </span>
        ),
    },
    { header: 'Scans', className: 'num', cell: (c) => count(c.scanCount) },
    { header: 'Consumers', className: 'num', cell: (c) => count(c.consumers) },
    {
      header: 'Verdict',
      cell: (c) =>
        c.suspicious ? (
          <span className="badge badge--warning">Suspicious</span>
        ) : (
          <span className="badge badge--success">Genuine</span>
        ),
    },
  ];
  return (
    <DataTable
      label="Most scanned codes"
      columns={columns}
      rows={codes}
      rowKey={(c) => c.id}
      empty="No code has been scanned yet."
    />
  );
}

const SESSION_COLUMNS: readonly Column<SessionDay>[] = [
  { header: 'Day', cell: (d) => longDay(d.day) },
  { header: 'Sessions', className: 'num', cell: (d) => count(d.sessions) },
  { header: 'Scans in sessions', className: 'num', cell: (d) => count(d.sessionScans) },
];

export function SessionDaysTable({ days }: { days: readonly SessionDay[] }) {
  return (
    <DataTable
      label="Consumer sessions per day"
      columns={SESSION_COLUMNS}
      rows={days}
      rowKey={(d) => d.day}
    />
  );
}

const CONSUMER_COLUMNS: readonly Column<ConsumerDay>[] = [
  { header: 'Day', cell: (d) => longDay(d.day) },
  { header: 'Consumers', className: 'num', cell: (d) => count(d.consumers) },
  { header: 'New', className: 'num', cell: (d) => count(d.newConsumers) },
  { header: 'Returning', className: 'num', cell: (d) => count(d.returningConsumers) },
];

export function ConsumerDaysTable({ days }: { days: readonly ConsumerDay[] }) {
  return (
    <DataTable
      label="Consumers per day"
      columns={CONSUMER_COLUMNS}
      rows={days}
      rowKey={(d) => d.day}
    />
  );
}

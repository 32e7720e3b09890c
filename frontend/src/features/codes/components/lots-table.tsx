import { DataTable, type Column } from '@/components/ui/data-table';
import { formatNumber } from '@/lib/format';
import { formatDay, type ProductLot } from '../code-jobs';

const none = <span className="muted">None</span>;

const COLUMNS: readonly Column<ProductLot>[] = [
  { header: 'Lot', cell: (lot) => <span className="mono">{lot.number}</span> },
  {
    header: 'Made on',
    cell: (lot) => (lot.manufactured_on ? formatDay(lot.manufactured_on) : none),
  },
  { header: 'Expiry', cell: (lot) => (lot.expires_on ? formatDay(lot.expires_on) : none) },
  { header: 'Jobs', className: 'num', cell: (lot) => formatNumber(lot.jobs) },
  { header: 'Codes', className: 'num', cell: (lot) => formatNumber(lot.codes) },
];

/** The product's lots, as its code jobs name them. */
export function LotsTable({ lots }: { lots: readonly ProductLot[] }) {
  return (
    <DataTable
      label="Lots"
      columns={COLUMNS}
      rows={lots}
      rowKey={(lot) => lot.number}
      empty="No lots yet: a lot is recorded with the first codes generated for it."
    />
  );
}

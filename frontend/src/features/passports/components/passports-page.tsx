import { Link } from 'react-router';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { usePassportList, type PassportSummary } from '../api/passports-api';
import { CompletenessBar } from './completeness-bar';

const COLUMNS: readonly Column<PassportSummary>[] = [
  {
    header: 'Product',
    cell: (p) => <Link to={paths.dppPassport.href(p.product_id)}>{p.product_name}</Link>,
  },
  { header: 'GTIN', cell: (p) => <code>{p.gtin}</code> },
  {
    header: 'Passport',
    cell: (p) =>
      p.version === 0 ? 'None yet' : `Version ${p.version}, ${formatDate(p.updated_at)}`,
  },
  {
    header: 'Completeness',
    className: 'share',
    cell: (p) => (
      <CompletenessBar value={p.completeness} label={`Completeness of ${p.product_name}`} />
    ),
  },
  {
    header: 'Lot passports',
    cell: (p) =>
      p.lots.length === 0 ? (
        <span className="muted">None</span>
      ) : (
        <span className="lot-links">
          {p.lots.map((l) => (
            <Link key={l.lot} to={paths.dppPassport.href(p.product_id, l.lot)}>
              {l.lot} ({l.completeness}%)
            </Link>
          ))}
        </span>
      ),
  },
];

/** `/DPP`: every product with its passport's completeness. */
export function PassportsPage() {
  const { result, reload } = usePassportList();
  return (
    <>
      <PageHeader
        title="Digital product passports"
        description="The EU product passport of each product: what a consumer sees when scanning its code, and what only your organisation sees."
      />
      <ApiResultView result={result} onRetry={reload}>
        {(list) => (
          <CardSection title="Products">
            <p className="muted" role="status">
              {list.products.filter((p) => p.completeness === 100).length} of {list.products.length}{' '}
              products have a complete passport. Completeness counts {list.counted_fields.length}{' '}
              fields.
            </p>
            <DataTable
              label="Passports"
              columns={COLUMNS}
              rows={list.products}
              rowKey={(p) => p.product_id}
              empty="No products yet: add products first."
            />
          </CardSection>
        )}
      </ApiResultView>
    </>
  );
}

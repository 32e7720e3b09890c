import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Stat } from '@/components/ui/stat';
import { formatDate, formatNumber } from '@/lib/format';
import { useCompanyOverview, type CompanyBatch, type CompanyProduct } from '../api/companies-api';

const PRODUCT_COLUMNS: readonly Column<CompanyProduct>[] = [
  { header: 'Product', cell: (p) => p.product_name },
  { header: 'SKU', cell: (p) => p.skuid },
  { header: 'GTIN', cell: (p) => <code>{p.gtin}</code> },
];

export const BATCH_COLUMNS: readonly Column<CompanyBatch>[] = [
  { header: 'Batch', cell: (b) => b.number },
  { header: 'Product', cell: (b) => b.product_name },
  { header: 'Manufactured', cell: (b) => formatDate(b.manufactured_on) },
  { header: 'Expires', cell: (b) => formatDate(b.expires_on) },
  { header: 'Codes', cell: (b) => formatNumber(b.codes), className: 'num' },
];

/** One company: its registration, code counts, products and batches. */
export function CompanyOverviewView({ id }: { id: string }) {
  const { result, reload } = useCompanyOverview(id);
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the company">
      {({ company, products, batches, codes }) => (
        <>
          <CardSection title={company.name}>
            <dl className="dl">
              <dt>CIN</dt>
              <dd>
                <code>{company.cin}</code>
              </dd>
              <dt>Registered address</dt>
              <dd>{company.registered_address}</dd>
            </dl>
          </CardSection>
          <div className="stats">
            <Stat label="Codes generated">{formatNumber(codes.generated)}</Stat>
            <Stat label="Codes printed">{formatNumber(codes.printed)}</Stat>
            <Stat label="Codes scanned">{formatNumber(codes.scanned)}</Stat>
          </div>
          <CardSection title="Products">
            <DataTable
              label={`Products of ${company.name}`}
              columns={PRODUCT_COLUMNS}
              rows={products}
              rowKey={(p) => p.id}
              empty="No products belong to this company yet. A product is assigned to a company when it is created or edited."
            />
          </CardSection>
          <CardSection title="Batches">
            <DataTable
              label={`Batches of ${company.name}`}
              columns={BATCH_COLUMNS}
              rows={batches}
              rowKey={(b) => b.id}
              empty="No batches yet. A batch appears here when codes are generated for a lot of one of this company’s products."
            />
          </CardSection>
        </>
      )}
    </ApiResultView>
  );
}

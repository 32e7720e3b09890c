import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import type { Role } from '@/lib/api/types';
import { canEditPrices } from '../access';
import {
  fetchCustomers,
  fetchPriceLists,
  fetchProducts,
  type Customer,
  type PriceList,
  type ProductChoice,
} from '../api/pricing-api';
import { money, scopeLabel, validityLabel } from '../forms';
import { PriceListForm } from './price-list-form';
import { QuoteTool } from './quote-tool';
import './pricing.css';

/** One cell: a list's products and their breaks. */
function Breaks({ list }: { list: PriceList }) {
  return (
    <ul className="pricing-breaks">
      {list.items.map((item) => (
        <li key={item.product_id}>
          {item.product_name}:{' '}
          {item.breaks
            .map((b) => `from ${b.min_quantity} at ${money(b.unit_price, list.currency)}`)
            .join('; ')}
        </li>
      ))}
    </ul>
  );
}

const LIST_COLUMNS: readonly Column<PriceList>[] = [
  { header: 'Name', cell: (l) => l.name },
  { header: 'For', cell: scopeLabel },
  { header: 'Valid', cell: validityLabel },
  { header: 'Currency', cell: (l) => l.currency },
  { header: 'Tiers', cell: (l) => l.tiering },
  { header: 'Prices', cell: (l) => <Breaks list={l} /> },
  { header: 'Version', className: 'num', cell: (l) => String(l.version) },
];

interface Catalogue {
  lists: PriceList[];
  products: ProductChoice[];
  customers: Customer[];
}

async function loadCatalogue() {
  const [lists, products, customers] = await Promise.all([
    fetchPriceLists(),
    fetchProducts(),
    fetchCustomers(),
  ]);
  if (!lists.ok) return lists;
  if (!products.ok) return products;
  // Customers belong to another module: without it, quotes use the default list.
  return {
    ok: true as const,
    data: {
      lists: lists.data,
      products: products.data,
      customers: customers.ok ? customers.data : [],
    } satisfies Catalogue,
  };
}

function Pricing({
  catalogue,
  editor,
  onSaved,
}: {
  catalogue: Catalogue;
  editor: boolean;
  onSaved: (list: PriceList) => void;
}) {
  const [editing, setEditing] = useState<PriceList | null>(null);
  return (
    <>
      <CardSection title="Quote a price">
        <QuoteTool products={catalogue.products} customers={catalogue.customers} />
      </CardSection>
      <CardSection title="Price lists">
        <DataTable
          label="Price lists"
          columns={LIST_COLUMNS}
          rows={catalogue.lists}
          rowKey={(l) => l.id}
          empty="No price lists yet."
          actions={
            editor
              ? (l) => (
                  <Button variant="secondary" onClick={() => setEditing(l)}>
                    Edit {l.name}
                  </Button>
                )
              : undefined
          }
        />
      </CardSection>
      {editor && editing ? (
        <CardSection title={`Edit ${editing.name}`}>
          <PriceListForm
            key={editing.id}
            products={catalogue.products}
            editing={editing}
            onCancel={() => setEditing(null)}
            onSaved={(list) => {
              setEditing(null);
              onSaved(list);
            }}
          />
        </CardSection>
      ) : null}
      {editor ? (
        <CardSection title="New price list">
          <PriceListForm products={catalogue.products} onSaved={onSaved} />
        </CardSection>
      ) : null}
    </>
  );
}

/**
 * `/Pricing`: the price lists (per currency, validity and customer group,
 * with volume or graduated tiers) and a quote tool. Every member reads and
 * quotes; admins and managers create and edit lists.
 */
export function PricingPage({ role }: { role: Role | null | undefined }) {
  const { result, reload, update } = useApiResult(loadCatalogue);
  return (
    <>
      <PageHeader
        title="Pricing"
        description="Price lists by customer group and validity, with volume or graduated quantity tiers, and what a quantity costs on a day."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the price lists">
        {(catalogue) => (
          <Pricing
            catalogue={catalogue}
            editor={canEditPrices(role)}
            onSaved={(list) =>
              update((c) => ({
                ...c,
                lists: c.lists.some((l) => l.id === list.id)
                  ? c.lists.map((l) => (l.id === list.id ? list : l))
                  : [...c.lists, list],
              }))
            }
          />
        )}
      </ApiResultView>
    </>
  );
}

import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { SelectField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/quantities';
import { useAppStore } from '@/stores/app-store';
import { canApproveMismatch, canBuy, canReceive } from '../access';
import {
  fetchLocations,
  fetchOrders,
  fetchProducts,
  fetchSuppliers,
  type Location,
  type Order,
  type OrderStatus,
  type ProductChoice,
  type Supplier,
} from '../api/procurement-api';
import { OrderForm } from './order-form';
import { OrderPanel } from './order-panel';
import { SuppliersSection } from './suppliers-section';
import { ORDER_STATUSES, StatusBadge } from './status-badge';
import './procurement.css';

const ORDER_COLUMNS: readonly Column<Order>[] = [
  { header: 'Order', cell: (o) => <span className="mono">{o.number}</span> },
  { header: 'Supplier', cell: (o) => o.supplier_name },
  { header: 'Expected', cell: (o) => formatDate(o.expected_on) },
  { header: 'Total', className: 'num', cell: (o) => formatMoney(o.total, o.currency) },
  { header: 'Status', cell: (o) => <StatusBadge status={o.status} /> },
];

interface Catalogue {
  suppliers: Supplier[];
  products: ProductChoice[];
  locations: Location[];
}

async function loadCatalogue() {
  const [suppliers, products, locations] = await Promise.all([
    fetchSuppliers(),
    fetchProducts(),
    fetchLocations(),
  ]);
  if (!suppliers.ok) return suppliers;
  if (!products.ok) return products;
  if (!locations.ok) return locations;
  return {
    ok: true as const,
    data: { suppliers: suppliers.data, products: products.data, locations: locations.data },
  };
}

/** The orders in one status (loaded again when the status or `version` changes). */
function OrdersTable({
  status,
  selected,
  onOpen,
}: {
  status: OrderStatus | '';
  selected: string | null;
  onOpen: (id: string) => void;
}) {
  const { result, reload } = useApiResult(() => fetchOrders(status));
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the purchase orders">
      {(orders) => (
        <DataTable
          label="Purchase orders"
          columns={ORDER_COLUMNS}
          rows={orders}
          rowKey={(o) => o.id}
          empty={status ? 'No order in this status.' : 'No purchase orders yet.'}
          actions={(o) => (
            <Button
              variant={selected === o.id ? 'primary' : 'secondary'}
              aria-pressed={selected === o.id}
              onClick={() => onOpen(o.id)}
            >
              Open {o.number}
            </Button>
          )}
        />
      )}
    </ApiResultView>
  );
}

function Procurement({
  catalogue,
  onSupplierAdded,
}: {
  catalogue: Catalogue;
  onSupplierAdded: (s: Supplier) => void;
}) {
  const role = useAppStore((s) => s.auth.user?.role);
  const buyer = canBuy(role);
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [selected, setSelected] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const refresh = () => setVersion((n) => n + 1);
  return (
    <>
      <SuppliersSection suppliers={catalogue.suppliers} canBuy={buyer} onAdded={onSupplierAdded} />
      {buyer ? (
        <CardSection title="New purchase order">
          <OrderForm
            suppliers={catalogue.suppliers}
            products={catalogue.products}
            onCreated={(order) => {
              setSelected(order.id);
              refresh();
            }}
          />
        </CardSection>
      ) : null}
      <CardSection title="Purchase orders">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as OrderStatus | '')}
          options={[
            { value: '', label: 'Every status' },
            ...ORDER_STATUSES.map((s) => ({ value: s.value, label: s.label })),
          ]}
        />
        <OrdersTable
          key={`${status}-${version}`}
          status={status}
          selected={selected}
          onOpen={setSelected}
        />
      </CardSection>
      {selected ? (
        <OrderPanel
          key={selected}
          orderId={selected}
          locations={catalogue.locations}
          canBuy={buyer}
          canReceive={canReceive(role)}
          isAdmin={canApproveMismatch(role)}
          onOrderChanged={refresh}
        />
      ) : null}
    </>
  );
}

/**
 * `/procurement`: suppliers, purchase orders (draft → confirmed → received,
 * or cancelled), receipts into lots and stock, and supplier bills with their
 * three-way match. Workers (and client employees) read and receive; admins
 * and managers also buy and approve bills; only admins approve a bill that
 * does not match.
 */
export function ProcurementPage() {
  const { result, reload, update } = useApiResult(loadCatalogue);
  return (
    <>
      <PageHeader
        title="Procurement"
        description="Order from your suppliers, receive the goods into lots and stock, and match each supplier bill against what was ordered and received."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading suppliers and products">
        {(catalogue) => (
          <Procurement
            catalogue={catalogue}
            onSupplierAdded={(s) => update((c) => ({ ...c, suppliers: [...c.suppliers, s] }))}
          />
        )}
      </ApiResultView>
    </>
  );
}

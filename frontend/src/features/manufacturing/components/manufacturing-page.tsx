import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import { useAppStore } from '@/stores/app-store';
import { canPlanManufacturing } from '../access';
import {
  createOrder,
  fetchLocations,
  fetchOrders,
  fetchProducts,
  type LocationChoice,
  type Order,
  type ProductChoice,
} from '../api/manufacturing-api';
import { quantityProblem } from '../forms';
import { BomSection } from './bom-section';
import { OrderPanel } from './order-panel';

const STATUS_LABELS: Record<Order['status'], string> = {
  planned: 'Planned',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const ORDER_COLUMNS: readonly Column<Order>[] = [
  { header: 'Order', cell: (o) => <span className="mono">{o.number}</span> },
  { header: 'Product', cell: (o) => o.product_name },
  { header: 'Quantity', cell: (o) => o.quantity, className: 'num' },
  { header: 'Output lot', cell: (o) => <span className="mono">{o.output_lot_number}</span> },
  { header: 'Location', cell: (o) => o.location_code },
  { header: 'Status', cell: (o) => STATUS_LABELS[o.status] },
];

/** GS1 AI 10: 1 to 20 characters of GS1's character set 82. */
const LOT_NUMBER = /^[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$/;

type Problems = Partial<Record<'product' | 'quantity' | 'location' | 'lot' | 'version', string>>;

/** A new order: product, quantity, where, the output lot, and optionally a BOM version. */
function OrderForm({
  products,
  locations,
  onCreated,
}: {
  products: ProductChoice[];
  locations: LocationChoice[];
  onCreated: (order: Order) => void;
}) {
  const [productId, setProductId] = useState('');
  const [quantity, setQuantity] = useState('');
  const [locationId, setLocationId] = useState('');
  const [lot, setLot] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [version, setVersion] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const usable = locations.filter((l) => l.kind !== 'quarantine' && l.kind !== 'scrap');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Problems = {};
    if (!productId) found.product = 'Choose the product to make.';
    const q = quantityProblem(quantity);
    if (q) found.quantity = q;
    if (!locationId) found.location = 'Choose where it is made.';
    if (!LOT_NUMBER.test(lot.trim()))
      found.lot = '1 to 20 letters, digits or GS1 punctuation, without spaces.';
    if (version.trim() && !/^[1-9][0-9]{0,8}$/.test(version.trim()))
      found.version = 'A version number such as 2, or leave it empty for the latest.';
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await createOrder({
      product_id: productId,
      quantity: quantity.trim(),
      location_id: locationId,
      output_lot_number: lot.trim(),
      ...(expiresOn ? { expires_on: expiresOn } : {}),
      ...(version.trim() ? { bom_version: Number(version.trim()) } : {}),
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`${result.data.number} created on BOM version ${result.data.bom_version}.`);
      setQuantity('');
      setLot('');
      setExpiresOn('');
      setVersion('');
      onCreated(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New manufacturing order">
      <h3 className="card__title">New order</h3>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Product to make"
          value={productId}
          onChange={(e) => setProductId(e.target.value)}
          options={[
            { value: '', label: 'Choose a product' },
            ...products.map((p) => ({ value: p.id, label: p.product_name })),
          ]}
          error={problems.product}
        />
        <TextField
          label="Quantity"
          inputMode="decimal"
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={problems.quantity}
        />
        <SelectField
          label="Location"
          value={locationId}
          onChange={(e) => setLocationId(e.target.value)}
          options={[
            { value: '', label: 'Choose a location' },
            ...usable.map((l) => ({ value: l.id, label: l.path })),
          ]}
          error={problems.location}
          hint="Components are taken from here and the output is put here."
        />
        <TextField
          label="Output lot number"
          value={lot}
          onChange={(e) => setLot(e.target.value)}
          error={problems.lot}
          maxLength={20}
          autoComplete="off"
        />
        <TextField
          label="Output expires on (optional)"
          type="date"
          value={expiresOn}
          onChange={(e) => setExpiresOn(e.target.value)}
        />
        <TextField
          label="BOM version (optional)"
          inputMode="numeric"
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          error={problems.version}
          hint="Leave empty to use the latest version."
        />
      </div>
      <FormActions busy={busy} submitLabel="Create order" />
    </form>
  );
}

function OrdersSection({
  products,
  locations,
  canPlan,
}: {
  products: ProductChoice[];
  locations: LocationChoice[];
  canPlan: boolean;
}) {
  const { result, reload } = useApiResult(fetchOrders);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <CardSection title="Manufacturing orders">
        <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the orders">
          {(orders) => (
            <DataTable
              label="Manufacturing orders"
              columns={ORDER_COLUMNS}
              rows={orders}
              rowKey={(o) => o.id}
              empty="No manufacturing orders yet."
              actions={(o) => (
                <Button
                  variant={open === o.id ? 'primary' : 'secondary'}
                  aria-pressed={open === o.id}
                  onClick={() => setOpen(o.id)}
                >
                  Open {o.number}
                </Button>
              )}
            />
          )}
        </ApiResultView>
        {canPlan ? (
          <OrderForm
            products={products}
            locations={locations}
            onCreated={(o) => {
              reload();
              setOpen(o.id);
            }}
          />
        ) : null}
      </CardSection>
      {open ? <OrderPanel key={open} id={open} canPlan={canPlan} onChanged={reload} /> : null}
    </>
  );
}

async function loadChoices() {
  const [products, locations] = await Promise.all([fetchProducts(), fetchLocations()]);
  if (!products.ok) return products;
  if (!locations.ok) return locations;
  return { ok: true as const, data: { products: products.data, locations: locations.data } };
}

/**
 * `/Manufacturing`: bills of materials per product (versions never change;
 * a new list is a new version) and manufacturing orders, which consume
 * their components earliest expiry first and produce an output lot when
 * completed. Workers (and client employees) start and complete orders;
 * admins and managers also write BOMs and create and cancel orders.
 */
export function ManufacturingPage() {
  const role = useAppStore((s) => s.auth.user?.role);
  const canPlan = canPlanManufacturing(role);
  const { result, reload } = useApiResult(loadChoices);
  return (
    <>
      <PageHeader
        title="Manufacturing"
        description="Bills of materials and manufacturing orders: components are consumed earliest expiry first, and the output lot is recorded with the lots that went into it."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading products and locations">
        {({ products, locations }) => (
          <>
            <OrdersSection products={products} locations={locations} canPlan={canPlan} />
            <BomSection products={products} canPlan={canPlan} />
          </>
        )}
      </ApiResultView>
    </>
  );
}

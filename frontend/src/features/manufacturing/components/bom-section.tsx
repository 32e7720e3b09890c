import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import { createBom, fetchBoms, type Bom, type ProductChoice } from '../api/manufacturing-api';
import { quantityProblem } from '../forms';

const BOM_COLUMNS: readonly Column<Bom>[] = [
  { header: 'Version', cell: (b) => `v${b.version}` },
  { header: 'Makes', cell: (b) => b.output_quantity, className: 'num' },
  {
    header: 'Components',
    cell: (b) => b.components.map((c) => `${c.quantity} × ${c.product_name}`).join(', '),
  },
  { header: 'Created', cell: (b) => formatDate(b.created_at) },
];

interface Row {
  key: number;
  productId: string;
  quantity: string;
}

let nextKey = 0;
function emptyRow(): Row {
  nextKey += 1;
  return { key: nextKey, productId: '', quantity: '' };
}

/** The form of a new BOM version: what one run makes, and its components. */
function BomForm({
  product,
  products,
  onCreated,
}: {
  product: ProductChoice;
  products: ProductChoice[];
  onCreated: (bom: Bom) => void;
}) {
  const [output, setOutput] = useState('');
  const [rows, setRows] = useState<Row[]>(() => [emptyRow()]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choices = [
    { value: '', label: 'Choose a component' },
    ...products
      .filter((p) => p.id !== product.id)
      .map((p) => ({ value: p.id, label: p.product_name })),
  ];

  function change(key: number, patch: Partial<Row>) {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const outputProblem = quantityProblem(output);
    if (outputProblem) found.output = outputProblem;
    rows.forEach((row, i) => {
      if (!row.productId) found[`p${row.key}`] = 'Choose a product.';
      else if (rows.slice(0, i).some((r) => r.productId === row.productId))
        found[`p${row.key}`] = 'List each component once.';
      const q = quantityProblem(row.quantity);
      if (q) found[`q${row.key}`] = q;
    });
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await createBom({
      product_id: product.id,
      output_quantity: output.trim(),
      components: rows.map((r) => ({ product_id: r.productId, quantity: r.quantity.trim() })),
    });
    setBusy(false);
    if (result.ok) {
      toast.success(`Version ${result.data.version} of ${product.product_name}’s BOM saved.`);
      setOutput('');
      setRows([emptyRow()]);
      onCreated(result.data);
    } else {
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New BOM version">
      <h3 className="card__title">New version</h3>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <TextField
        label="One run makes"
        inputMode="decimal"
        value={output}
        onChange={(e) => setOutput(e.target.value)}
        error={problems.output}
        hint={`How much ${product.product_name} the components below make.`}
      />
      {rows.map((row, i) => (
        <fieldset key={row.key} className="fieldset">
          <legend className="field__label">Component {i + 1}</legend>
          <div className="form-grid">
            <SelectField
              label="Product"
              value={row.productId}
              onChange={(e) => change(row.key, { productId: e.target.value })}
              options={choices}
              error={problems[`p${row.key}`]}
            />
            <TextField
              label="Quantity"
              inputMode="decimal"
              value={row.quantity}
              onChange={(e) => change(row.key, { quantity: e.target.value })}
              error={problems[`q${row.key}`]}
            />
          </div>
          {rows.length > 1 ? (
            <Button
              variant="secondary"
              onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
            >
              Remove component {i + 1}
            </Button>
          ) : null}
        </fieldset>
      ))}
      {rows.length < 100 ? (
        <Button variant="secondary" onClick={() => setRows((all) => [...all, emptyRow()])}>
          Add component
        </Button>
      ) : null}
      <FormActions busy={busy} submitLabel="Save version" />
    </form>
  );
}

function Versions({
  product,
  products,
  canPlan,
}: {
  product: ProductChoice;
  products: ProductChoice[];
  canPlan: boolean;
}) {
  const { result, reload } = useApiResult(() => fetchBoms(product.id));
  return (
    <>
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the versions">
        {(boms) => (
          <DataTable
            label={`BOM versions of ${product.product_name}`}
            columns={BOM_COLUMNS}
            rows={boms}
            rowKey={(b) => b.id}
            empty={`${product.product_name} has no bill of materials yet.`}
          />
        )}
      </ApiResultView>
      {canPlan ? <BomForm product={product} products={products} onCreated={reload} /> : null}
    </>
  );
}

/**
 * Bills of materials: a product's versions, newest first (never changed
 * once saved), and, for admins and managers, a form for the next version.
 */
export function BomSection({ products, canPlan }: { products: ProductChoice[]; canPlan: boolean }) {
  const [productId, setProductId] = useState('');
  const product = products.find((p) => p.id === productId);
  return (
    <CardSection title="Bills of materials">
      <SelectField
        label="Product"
        value={productId}
        onChange={(e) => setProductId(e.target.value)}
        options={[
          { value: '', label: 'Choose a product' },
          ...products.map((p) => ({ value: p.id, label: p.product_name })),
        ]}
      />
      {product ? (
        <Versions key={product.id} product={product} products={products} canPlan={canPlan} />
      ) : (
        <p className="muted">Choose a product to see its bill of materials versions.</p>
      )}
    </CardSection>
  );
}

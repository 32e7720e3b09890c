import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import {
  fetchQuote,
  type Customer,
  type ProductChoice,
  type Quote,
  type QuoteLine,
} from '../api/pricing-api';
import { emptyQuote, money, quoteQuery, validateQuote, type QuoteErrors } from '../forms';

function lineColumns(currency: string): readonly Column<QuoteLine>[] {
  return [
    {
      header: 'Units',
      cell: (l) =>
        l.from_quantity === l.to_quantity ? l.from_quantity : `${l.from_quantity}–${l.to_quantity}`,
    },
    { header: 'Quantity', className: 'num', cell: (l) => l.quantity },
    { header: 'Break', className: 'num', cell: (l) => `from ${l.min_quantity}` },
    { header: 'Unit price', className: 'num', cell: (l) => money(l.unit_price, currency) },
    { header: 'Amount', className: 'num', cell: (l) => money(l.amount, currency) },
  ];
}

/** The answer of a quote: the list that applied, the lines and the total. */
export function QuoteResult({ quote }: { quote: Quote }) {
  return (
    <div aria-live="polite">
      <p className="pricing-total">
        {money(quote.total, quote.currency)} for {quote.quantity} (
        {money(quote.unit_price, quote.currency)} a unit)
      </p>
      <p className="muted">
        From “{quote.price_list_name}” ({quote.tiering}) on {quote.on}. Each line is rounded half-up
        to the currency’s minor unit; the total is their sum.
      </p>
      <DataTable
        label="Quote lines"
        columns={lineColumns(quote.currency)}
        rows={quote.lines}
        rowKey={(l) => `${l.from_quantity}-${l.min_quantity}`}
        empty="No line."
      />
    </div>
  );
}

/** Asks what a quantity of a product costs, for a customer and a day when given. */
export function QuoteTool({
  products,
  customers,
}: {
  products: readonly ProductChoice[];
  customers: readonly Customer[];
}) {
  const [values, setValues] = useState(emptyQuote);
  const [errors, setErrors] = useState<QuoteErrors>({});
  const [quote, setQuote] = useState<Quote | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateQuote(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    const result = await fetchQuote(quoteQuery(values));
    setBusy(false);
    if (!result.ok) {
      setQuote(null);
      setServerError(result.message);
      return;
    }
    setServerError(null);
    setQuote(result.data);
  }

  return (
    <>
      <form onSubmit={onSubmit} noValidate aria-label="Quote a price">
        <div className="form-grid">
          <SelectField
            label="Product"
            value={values.product_id}
            onChange={(e) => setValues((v) => ({ ...v, product_id: e.target.value }))}
            error={errors.product_id ?? null}
            options={[
              { value: '', label: 'Choose a product' },
              ...products.map((p) => ({ value: p.id, label: p.product_name })),
            ]}
          />
          <TextField
            label="Quantity"
            inputMode="decimal"
            autoComplete="off"
            value={values.quantity}
            onChange={(e) => setValues((v) => ({ ...v, quantity: e.target.value }))}
            error={errors.quantity ?? null}
          />
          <SelectField
            label="Customer (optional)"
            value={values.customer_id}
            onChange={(e) => setValues((v) => ({ ...v, customer_id: e.target.value }))}
            options={[
              { value: '', label: 'No customer: the default list' },
              ...customers.map((c) => ({
                value: c.id,
                label: c.group ? `${c.name} (${c.group})` : c.name,
              })),
            ]}
          />
          <TextField
            label="On (optional)"
            type="date"
            hint="Empty: today."
            value={values.on}
            onChange={(e) => setValues((v) => ({ ...v, on: e.target.value }))}
            error={errors.on ?? null}
          />
        </div>
        <FormActions busy={busy} submitLabel="Quote" />
      </form>
      {serverError ? <ErrorAlert>{serverError}</ErrorAlert> : null}
      {quote ? <QuoteResult quote={quote} /> : null}
    </>
  );
}

import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { Stat } from '@/components/ui/stat';
import { useApiResult } from '@/hooks/use-api-result';
import { fetchValuation, type ValuationRow } from '../api/inventory-api';
import { formatMoney, formatQuantity, isZero, sumDecimals } from '../quantities';
import './inventory.css';

/** One line per product and currency: a product received in two currencies has two. */
interface ValueLine {
  key: string;
  product: string;
  onHand: string;
  quantity: string;
  value: string;
  currency: string;
}

export function valueLines(rows: readonly ValuationRow[]): ValueLine[] {
  return rows.flatMap((row) => {
    const lines = row.values.map((v) => ({
      key: `${row.product_id}/${v.currency}`,
      product: row.product_name,
      onHand: row.on_hand,
      quantity: v.quantity,
      value: v.value,
      currency: v.currency,
    }));
    // Stock that came in through no receipt (an adjustment up) has no cost to value it by.
    if (!isZero(row.unvalued_quantity)) {
      lines.push({
        key: `${row.product_id}/unvalued`,
        product: row.product_name,
        onHand: row.on_hand,
        quantity: row.unvalued_quantity,
        value: '',
        currency: '',
      });
    }
    return lines;
  });
}

/** The value on hand per currency, summed exactly, currencies in alphabetical order. */
export function totalsByCurrency(
  rows: readonly ValuationRow[],
): { currency: string; value: string }[] {
  const byCurrency = new Map<string, string[]>();
  for (const row of rows) {
    for (const v of row.values)
      byCurrency.set(v.currency, [...(byCurrency.get(v.currency) ?? []), v.value]);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, values]) => ({ currency, value: sumDecimals(values) }));
}

const COLUMNS: Column<ValueLine>[] = [
  { header: 'Product', cell: (line) => line.product },
  { header: 'On hand', className: 'num', cell: (line) => formatQuantity(line.onHand) },
  { header: 'Valued quantity', className: 'num', cell: (line) => formatQuantity(line.quantity) },
  {
    header: 'Value',
    className: 'num',
    cell: (line) => (line.currency ? formatMoney(line.value, line.currency) : 'No receipt cost'),
  },
];

/**
 * `/erp/inventory` (issue 22): the value of the stock on hand per product,
 * first in first out by receipt (what is on hand is what arrived last, at
 * its unit cost), per currency: amounts in two currencies are never added.
 */
export function ValuationPage() {
  const { result, reload } = useApiResult(fetchValuation);
  return (
    <>
      <PageHeader
        title="Stock valuation"
        description="The value of the stock on hand, first in first out by receipt, per currency."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the valuation…">
        {(rows) => (
          <>
            {rows.length ? (
              <div className="stats">
                {totalsByCurrency(rows).map((total) => (
                  <Stat key={total.currency} label={`Total in ${total.currency}`}>
                    {formatMoney(total.value, total.currency)}
                  </Stat>
                ))}
              </div>
            ) : null}
            <CardSection title="Value on hand">
              <DataTable
                label="Value on hand per product and currency"
                columns={COLUMNS}
                rows={valueLines(rows)}
                rowKey={(line) => line.key}
                empty="No stock on hand to value."
              />
            </CardSection>
          </>
        )}
      </ApiResultView>
    </>
  );
}

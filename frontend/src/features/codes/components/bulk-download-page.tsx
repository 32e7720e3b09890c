import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import { formatNumber } from '@/lib/format';
import { bulkDownloadUrl, listAllCodeJobs, type CodeJob } from '../api/codes-api';
import {
  MAX_LOTS,
  bulkLotsOf,
  bulkSelection,
  selectionCodes,
  summaryText,
  type BulkLot,
  type BulkMode,
} from '../bulk-download';
import { codesText, formatDay } from '../code-jobs';

const MODES: readonly { value: BulkMode; label: string; hint: string }[] = [
  { value: 'lots', label: 'Batches', hint: `Up to ${MAX_LOTS} batches (lots), all their codes.` },
  {
    value: 'range',
    label: 'Date range',
    hint: 'The codes of every job created from the first to the last day (UTC).',
  },
];

/** The most jobs the listing gives: with that many, older ones may be left out of it. */
const LISTING_LIMIT = 500;

function lotText(lot: BulkLot, productNames?: ReadonlyMap<string, string>): string {
  const name = productNames?.get(lot.product_id);
  const parts = name ? [name, `GTIN ${lot.gtin}`] : [`GTIN ${lot.gtin}`];
  if (lot.expires_on) parts.push(`expires ${formatDay(lot.expires_on)}`);
  parts.push(lot.codes > 0 ? codesText(lot.codes) : 'no codes yet');
  if (lot.pending > 0) parts.push(`${formatNumber(lot.pending)} still generating`);
  return parts.join(' · ');
}

/**
 * `/pmbi/codeDownload`, client B's bulk download: the codes of chosen
 * batches, or of the jobs of a range of days, as one ZIP of CSVs (one per
 * code job) with a manifest. The download is a plain link: the browser
 * streams the file to disk while the server writes it. `productNames` (by
 * product id, from the route) names each batch's product when known.
 */
export function BulkDownloadPage({ productNames }: { productNames?: ReadonlyMap<string, string> }) {
  const { result, reload } = useApiResult(listAllCodeJobs);
  return (
    <>
      <PageHeader
        title="Bulk code download"
        description="Download the codes of chosen batches, or of a date range, as one ZIP of CSV files with a manifest."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading your batches">
        {(data) =>
          data.jobs.length === 0 ? (
            <EmptyState icon={<DownloadMinimalisticIcon />}>
              No codes have been generated yet: there is nothing to download.
            </EmptyState>
          ) : (
            <BulkDownloadForm jobs={data.jobs} productNames={productNames} />
          )
        }
      </ApiResultView>
    </>
  );
}

function BulkDownloadForm({
  jobs,
  productNames,
}: {
  jobs: readonly CodeJob[];
  productNames?: ReadonlyMap<string, string>;
}) {
  const lots = bulkLotsOf(jobs);
  const [mode, setMode] = useState<BulkMode>(lots.length > 0 ? 'lots' : 'range');
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const picked = bulkSelection(mode, chosen, from, to);
  const summary = picked.ok ? selectionCodes(jobs, picked.selection) : null;
  // The listing holds the newest jobs only: with a full one, older codes may exist.
  const complete = jobs.length < LISTING_LIMIT || mode === 'lots';
  const nothing = summary !== null && summary.codes === 0 && complete;

  function toggle(id: string, on: boolean) {
    setChosen((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));
  }

  return (
    <CardSection title="What to download">
      <form aria-label="Bulk code download" onSubmit={(e) => e.preventDefault()} noValidate>
        <fieldset className="fieldset">
          <legend className="field__label">Download by</legend>
          <div className="choice-grid">
            {MODES.map((option) => (
              <label key={option.value} className="choice">
                <input
                  type="radio"
                  name="mode"
                  value={option.value}
                  checked={mode === option.value}
                  onChange={() => setMode(option.value)}
                  aria-labelledby={`mode-${option.value}`}
                  aria-describedby={`mode-${option.value}-hint`}
                />
                <span>
                  <span className="choice__label" id={`mode-${option.value}`}>
                    {option.label}
                  </span>
                  <span className="choice__hint" id={`mode-${option.value}-hint`}>
                    {option.hint}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {mode === 'lots' ? (
          lots.length === 0 ? (
            <p className="muted">No batches yet: your codes were generated without a lot number.</p>
          ) : (
            <fieldset className="fieldset">
              <legend className="field__label">Batches</legend>
              <ul className="bulk-lots">
                {lots.map((lot) => (
                  <li key={lot.id}>
                    <label className="check">
                      <input
                        type="checkbox"
                        name="lot_id"
                        value={lot.id}
                        checked={chosen.includes(lot.id)}
                        onChange={(e) => toggle(lot.id, e.target.checked)}
                        aria-describedby={`lot-${lot.id}`}
                      />
                      <span>
                        <span className="mono">{lot.number}</span>{' '}
                        <span className="muted" id={`lot-${lot.id}`}>
                          {lotText(lot, productNames)}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )
        ) : (
          <div className="form-grid">
            <TextField
              label="First day"
              name="from"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
            <TextField
              label="Last day"
              name="to"
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </div>
        )}
        <div role="status" aria-live="polite">
          {!picked.ok ? (
            <p className="muted">{picked.reason}</p>
          ) : nothing ? (
            <p className="field__error">
              {summary.pending > 0
                ? 'The codes of this selection are still being generated: download them when the jobs are done.'
                : 'No codes have been generated for this selection: there is nothing to download.'}
            </p>
          ) : summary ? (
            <p>
              {complete
                ? summaryText(summary)
                : `At least ${summaryText(summary)} (older jobs are counted when downloading)`}
              {summary.pending > 0
                ? `; ${formatNumber(summary.pending)} still generating, left out`
                : ''}
              .
            </p>
          ) : null}
        </div>
        <div className="form-actions">
          {picked.ok && !nothing ? (
            <a className="btn btn--primary" href={bulkDownloadUrl(picked.selection)} download>
              <DownloadMinimalisticIcon /> Download ZIP
            </a>
          ) : (
            <button type="button" className="btn btn--primary" disabled>
              <DownloadMinimalisticIcon /> Download ZIP
            </button>
          )}
        </div>
      </form>
    </CardSection>
  );
}

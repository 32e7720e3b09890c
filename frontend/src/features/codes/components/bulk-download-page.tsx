import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { useEffect, useRef, useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { ChoiceField, type Choice } from '@/components/ui/choice-field';
import { TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useApiResult } from '@/hooks/use-api-result';
import { formatNumber } from '@/lib/format';
import { bulkDownloadUrl, listCodeLots, type CodeLot } from '../api/codes-api';
import { useBulkSummary } from '../api/use-bulk-summary';
import { MAX_LOTS, bulkSelection, summaryText, type BulkMode } from '../bulk-download';
import { codesText, formatDay } from '../code-jobs';
import { codeMessages } from '../messages';

const MODES: readonly Choice<BulkMode>[] = [
  { value: 'lots', label: 'Batches', hint: `Up to ${MAX_LOTS} batches (lots), all their codes.` },
  {
    value: 'range',
    label: 'Date range',
    hint: 'The codes of every job created from the first to the last day (UTC).',
  },
];

function lotText(lot: CodeLot): string {
  const parts = [lot.product_name, `GTIN ${lot.gtin}`];
  if (lot.expires_on) parts.push(`expires ${formatDay(lot.expires_on)}`);
  parts.push(lot.codes > 0 ? codesText(lot.codes) : 'no codes yet');
  if (lot.pending > 0) parts.push(`${formatNumber(lot.pending)} still generating`);
  return parts.join(' · ');
}

/**
 * `/pmbi/codeDownload`, client B's bulk download: the codes of chosen
 * batches, or of the jobs of a range of days, as one ZIP of CSVs (one per
 * code job) with a manifest. The batches come from `listCodeLots`; what a
 * selection holds is counted by the server (`summarizeCodesBulk`), exactly
 * as the download would. The download is a plain link: the browser streams
 * the file to disk while the server writes it. While the selection is being
 * counted the button waits (it does not look clickable); a click then is
 * kept, and the download starts once the count is ready, or the page says
 * why it cannot.
 */
export function BulkDownloadPage() {
  const { result, reload } = useApiResult(listCodeLots);
  return (
    <>
      <PageHeader
        title="Bulk code download"
        description="Download the codes of chosen batches, or of a date range, as one ZIP of CSV files with a manifest."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading your batches">
        {(data) => <BulkDownloadForm lots={data.lots} more={data.more} />}
      </ApiResultView>
    </>
  );
}

function BulkDownloadForm({ lots, more }: { lots: readonly CodeLot[]; more: boolean }) {
  const [mode, setMode] = useState<BulkMode>(lots.length > 0 ? 'lots' : 'range');
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const picked = bulkSelection(mode, chosen, from, to);
  const { result, loading, retry } = useBulkSummary(picked.ok ? picked.selection : null);
  // The download is offered for what the server counted for this very selection.
  const ready = picked.ok && result?.ok === true && result.data.files > 0;
  // A refusal of the selection (4xx) is final; anything else may pass on a second try.
  const retryable = result?.ok === false && !(result.kind === 'status' && result.status < 500);
  const counting = picked.ok && loading;
  // A click while the selection was counted (numbered; 0: none since the
  // selection last changed): the download it asked for, started once.
  const [queued, setQueued] = useState(0);
  const started = useRef(0);
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (queued === 0 || counting || started.current === queued) return;
    started.current = queued;
    // The count is in: download what it holds, or nothing (the status says why).
    if (ready) link.current?.click();
  }, [queued, counting, ready]);
  /** A change of the selection forgets a click made for the one before. */
  function changed<T>(set: (value: T) => void) {
    return (value: T) => {
      setQueued(0);
      set(value);
    };
  }

  function toggle(id: string, on: boolean) {
    setQueued(0);
    setChosen((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));
  }

  return (
    <CardSection title="What to download">
      <form aria-label="Bulk code download" onSubmit={(e) => e.preventDefault()} noValidate>
        <ChoiceField
          label="Download by"
          name="mode"
          options={MODES}
          value={mode}
          onChange={changed(setMode)}
        />
        {mode === 'lots' ? (
          lots.length === 0 ? (
            <p className="muted">{codeMessages.noLots}</p>
          ) : (
            <fieldset className="fieldset">
              <legend className="field__label">Batches</legend>
              {more ? <p className="muted">{codeMessages.moreLots(lots.length)}</p> : null}
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
                          {lotText(lot)}
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
              onChange={(e) => changed(setFrom)(e.target.value)}
            />
            <TextField
              label="Last day"
              name="to"
              type="date"
              value={to}
              onChange={(e) => changed(setTo)(e.target.value)}
            />
          </div>
        )}
        <div role="status" aria-live="polite" aria-busy={picked.ok && loading}>
          {!picked.ok ? (
            <p className="muted">{picked.reason}</p>
          ) : loading || result === null ? (
            <p className="muted">
              {codeMessages.counting}
              {queued !== 0 ? ` ${codeMessages.downloadQueued}` : ''}
            </p>
          ) : !result.ok ? (
            <p className="field__error">{result.message}</p>
          ) : (
            <p>
              {summaryText(result.data)}
              {result.data.pending > 0
                ? `; ${formatNumber(result.data.pending)} still generating, left out`
                : ''}
              .
            </p>
          )}
        </div>
        <div className="form-actions">
          {ready ? (
            <a
              ref={link}
              className="btn btn--primary"
              href={bulkDownloadUrl(picked.selection)}
              download
            >
              <DownloadMinimalisticIcon /> Download ZIP
            </a>
          ) : counting ? (
            <button
              type="button"
              className="btn btn--primary btn--waiting"
              aria-disabled="true"
              aria-busy="true"
              onClick={() => setQueued((n) => n + 1)}
            >
              <Spinner /> Download ZIP
            </button>
          ) : (
            <button type="button" className="btn btn--primary" disabled>
              <DownloadMinimalisticIcon /> Download ZIP
            </button>
          )}
          {retryable ? (
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => {
                setQueued(0);
                retry();
              }}
            >
              Try again
            </button>
          ) : null}
        </div>
      </form>
    </CardSection>
  );
}

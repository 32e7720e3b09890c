import { QrCodeIcon } from '@solar-icons/react/linear/qr-code';
import { useEffect, useRef } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { formatNumber } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canIssueCodes } from '../access';
import { useCodeJobs } from '../api/use-code-jobs';
import { isActive, lotsOf } from '../code-jobs';
import { CodeJobsTable } from './code-jobs-table';
import { GenerateCodesForm } from './generate-codes-form';
import { LotsTable } from './lots-table';

/**
 * The codes of one product, for its page: the plan's code quota, the code
 * jobs with their progress (followed every second while one runs) and
 * downloads, the product's lots, and the "Generate codes" form for the
 * roles that may start jobs, unless the product is archived. When a job the
 * page saw running finishes, `onJobFinished` tells the page (its journey,
 * traceability and sample code change with it).
 */
export function ProductCodes({
  productId,
  archived,
  onJobFinished,
}: {
  productId: string;
  archived: boolean;
  onJobFinished?: () => void;
}) {
  const role = useAppStore((s) => s.auth.user?.role);
  const issuer = canIssueCodes(role);
  const { result, refreshError, reload, refresh, jobCreated } = useCodeJobs(productId);
  const list = result?.ok ? result.data : null;
  const lots = list ? lotsOf(list.jobs) : [];

  // The jobs seen queued or running; one of them seen finished is news.
  const running = useRef(new Set<string>());
  useEffect(() => {
    if (!list) return;
    const finished = list.jobs.some((j) => running.current.has(j.id) && j.status === 'done');
    running.current = new Set(list.jobs.filter(isActive).map((j) => j.id));
    if (finished) onJobFinished?.();
  }, [list, onJobFinished]);

  return (
    <>
      <CardSection
        title={
          <>
            <QrCodeIcon /> Codes
          </>
        }
      >
        <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the code jobs…">
          {(data) => (
            <>
              <p>
                <strong>{formatNumber(data.qr_codes_remaining)}</strong> of{' '}
                {formatNumber(data.code_quota)} codes left in your plan.
              </p>
              {archived ? (
                <p className="muted">
                  This product is archived: no more codes can be generated for it.
                </p>
              ) : null}
              {refreshError ? (
                <p className="field__error" role="status">
                  {refreshError}
                </p>
              ) : null}
              <CodeJobsTable jobs={data.jobs} downloads={issuer} />
            </>
          )}
        </ApiResultView>
      </CardSection>
      {list ? (
        <CardSection title="Lots">
          <LotsTable lots={lots} />
        </CardSection>
      ) : null}
      {issuer && !archived ? (
        <CardSection title="Generate codes">
          <GenerateCodesForm
            productId={productId}
            remaining={list?.qr_codes_remaining}
            lots={lots}
            onCreated={jobCreated}
            onRefused={() => void refresh()}
          />
        </CardSection>
      ) : null}
    </>
  );
}

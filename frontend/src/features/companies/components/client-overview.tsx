import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable } from '@/components/ui/data-table';
import { Stat } from '@/components/ui/stat';
import { formatNumber } from '@/lib/format';
import { useClientOverview } from '../api/companies-api';
import { BATCH_COLUMNS } from './company-overview';

/**
 * The signed-in client organisation's codes, generated, printed and scanned,
 * and its newest batches with the codes generated for each
 * (`GET /api/client-overview`): the top of a client's dashboard.
 */
export function ClientOverviewView() {
  const { result, reload } = useClientOverview();
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading your codes">
      {({ codes, batches, more_batches }) => (
        <>
          <div className="stats">
            <Stat label="Codes generated">{formatNumber(codes.generated)}</Stat>
            <Stat label="Codes printed">{formatNumber(codes.printed)}</Stat>
            <Stat label="Codes scanned">{formatNumber(codes.scanned)}</Stat>
          </div>
          <CardSection title="Your batches">
            <DataTable
              label="Your batches"
              columns={BATCH_COLUMNS}
              rows={batches}
              rowKey={(b) => b.id}
              empty="No batches yet. A batch appears here when codes are generated for a lot of one of your products."
            />
            {more_batches ? (
              <p className="muted">The newest {formatNumber(batches.length)} batches are listed.</p>
            ) : null}
          </CardSection>
        </>
      )}
    </ApiResultView>
  );
}

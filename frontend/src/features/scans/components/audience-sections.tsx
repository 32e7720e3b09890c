import { ClockCircleIcon } from '@solar-icons/react/linear/clock-circle';
import { UsersGroupRoundedIcon } from '@solar-icons/react/linear/users-group-rounded';
import { useEffect } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { LoadingBlock } from '@/components/ui/spinner';
import { Stat } from '@/components/ui/stat';
import { formatNumber } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { loadConsumers, loadSessions } from '../api/audience-api';
import { formatAverage } from '../audience';
import type { DateRange } from '../date-range';
import { ConsumersChart, FiguresTable, SessionsChart, WithSkeleton } from './lazy-parts';
import { ConsumerDaysTable, SessionDaysTable } from './scan-tables';

/** True when the slice holds the answer for `range` (not a previous range's). */
function isFor(data: { from: string; to: string } | null, range: DateRange) {
  return data !== null && data.from === range.from && data.to === range.to;
}

function SessionsCard({ range }: { range: DateRange }) {
  const sessions = useAppStore((s) => s.sessions);
  const data = sessions.data;
  return (
    <CardSection
      title={
        <>
          <ClockCircleIcon aria-hidden="true" /> Consumer sessions
        </>
      }
    >
      <p className="muted">
        A session is one consumer’s scans until 30 minutes pass without another. Consumers are told
        apart by an anonymous id the scan page keeps in their browser; no name or account.
      </p>
      {sessions.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadSessions(range)}>{sessions.error}</ErrorAlert>
      ) : null}
      {sessions.status === 'loading' || sessions.status === 'idle' ? (
        <LoadingBlock label="Loading consumer sessions…" />
      ) : null}
      {sessions.status === 'succeeded' && data && isFor(data, range) ? (
        <>
          <div className="stats scan-stats" role="group" aria-label="Session figures">
            <Stat label="Sessions">{formatNumber(data.sessions)}</Stat>
            <Stat label="Scans in sessions">{formatNumber(data.sessionScans)}</Stat>
            <Stat label="Average scans per session">
              {formatAverage(data.averageScansPerSession)}
            </Stat>
          </div>
          {data.sessions === 0 ? (
            <p className="muted">No consumer sessions in this range.</p>
          ) : (
            <>
              <WithSkeleton>
                <SessionsChart days={data.byDay} />
              </WithSkeleton>
              <FiguresTable>
                <SessionDaysTable days={data.byDay} />
              </FiguresTable>
            </>
          )}
        </>
      ) : null}
    </CardSection>
  );
}

function ConsumersCard({ range }: { range: DateRange }) {
  const consumers = useAppStore((s) => s.consumers);
  const data = consumers.data;
  return (
    <CardSection
      title={
        <>
          <UsersGroupRoundedIcon aria-hidden="true" /> Consumers
        </>
      }
    >
      <p className="muted">
        Consumers who scanned on each day, new (their first scan) or returning. A consumer who scans
        on three days counts on each of those days, so the totals are consumer-days, not people.
      </p>
      {consumers.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadConsumers(range)}>{consumers.error}</ErrorAlert>
      ) : null}
      {consumers.status === 'loading' || consumers.status === 'idle' ? (
        <LoadingBlock label="Loading consumers…" />
      ) : null}
      {consumers.status === 'succeeded' && data && isFor(data, range) ? (
        <>
          <div className="stats scan-stats" role="group" aria-label="Consumer figures">
            <Stat label="New consumers">{formatNumber(data.newConsumers)}</Stat>
            <Stat
              label="Returning consumer-days"
              footer={<div className="stat__note">Days on which earlier consumers came back</div>}
            >
              {formatNumber(data.returningConsumerDays)}
            </Stat>
            <Stat
              label="Consumer-days"
              footer={<div className="stat__note">Each consumer once per day they scanned</div>}
            >
              {formatNumber(data.consumerDays)}
            </Stat>
          </div>
          {data.consumerDays === 0 ? (
            <p className="muted">No consumers scanned in this range.</p>
          ) : (
            <>
              <WithSkeleton>
                <ConsumersChart days={data.byDay} />
              </WithSkeleton>
              <FiguresTable>
                <ConsumerDaysTable days={data.byDay} />
              </FiguresTable>
            </>
          )}
        </>
      ) : null}
    </CardSection>
  );
}

/**
 * Who scanned in the analytics' range: consumer sessions (the spec's
 * `sessions` slice) and unique consumers per day, new against returning (its
 * users-data, in the `consumers` slice).
 */
export function AudienceSections({ range }: { range: DateRange }) {
  const { from, to } = range;
  useEffect(() => {
    void loadSessions({ from, to });
    void loadConsumers({ from, to });
  }, [from, to]);
  return (
    <div className="audience-grid">
      <SessionsCard range={range} />
      <ConsumersCard range={range} />
    </div>
  );
}

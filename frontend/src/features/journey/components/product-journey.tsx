import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { LoadingBlock } from '@/components/ui/spinner';
import { useAppStore } from '@/stores/app-store';
import { canRecordSteps } from '../access';
import { loadProductJourney, loadTraceability } from '../api/journey-api';
import { JourneyTimeline } from './journey-timeline';
import { RecordStepForm } from './record-step-form';
import { TraceabilityView } from './traceability-view';

function loadBoth(skuid: string) {
  void loadProductJourney(skuid);
  void loadTraceability(skuid);
}

/**
 * The product's journey (a timeline of its EPCIS events and scans) and its
 * traceability (upstream and downstream), from the `productJourney` and
 * `traceability` slices, for its page; and, for the roles that may, the form
 * that records packing, shipping and receiving. A failed load says so in a
 * toast and in place, with the spec's message.
 */
export function ProductJourney({ skuid, archived }: { skuid: string; archived: boolean }) {
  const role = useAppStore((s) => s.auth.user?.role);
  const journey = useAppStore((s) => s.productJourney);
  const trace = useAppStore((s) => s.traceability);

  useEffect(() => loadBoth(skuid), [skuid]);
  useEffect(() => {
    if (journey.status === 'failed' && journey.error) toast.error(journey.error);
  }, [journey.status, journey.error]);
  useEffect(() => {
    if (trace.status === 'failed' && trace.error) toast.error(trace.error);
  }, [trace.status, trace.error]);

  const shownJourney = journey.data?.product.skuid === skuid ? journey.data : null;
  const shownTrace = trace.data?.product.skuid === skuid ? trace.data : null;

  return (
    <>
      <CardSection title="Journey">
        {journey.status === 'failed' ? (
          <ErrorAlert onRetry={() => void loadProductJourney(skuid)}>{journey.error}</ErrorAlert>
        ) : shownJourney ? (
          <>
            <JourneyTimeline steps={shownJourney.steps} />
            {shownJourney.truncated ? (
              <p className="muted">Only the newest 1,000 events and days of scans are shown.</p>
            ) : null}
          </>
        ) : (
          <LoadingBlock label="Loading the journey…" />
        )}
      </CardSection>
      <CardSection title="Traceability">
        {trace.status === 'failed' ? (
          <ErrorAlert onRetry={() => void loadTraceability(skuid)}>{trace.error}</ErrorAlert>
        ) : shownTrace ? (
          <TraceabilityView trace={shownTrace} />
        ) : (
          <LoadingBlock label="Loading the traceability…" />
        )}
      </CardSection>
      {canRecordSteps(role) && !archived ? (
        <CardSection title="Record a step">
          <RecordStepForm skuid={skuid} onRecorded={() => loadBoth(skuid)} />
        </CardSection>
      ) : null}
    </>
  );
}

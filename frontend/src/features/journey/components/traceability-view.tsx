import type { JourneyEvent, Traceability } from '../api/journey-api';
import { formatWhen, identifierLabel, whatLabel, whereLabel } from '../journey';

function Events({ title, events }: { title: string; events: readonly JourneyEvent[] }) {
  return (
    <div>
      <h3>{title}</h3>
      {events.length ? (
        <ul aria-label={title}>
          {events.map((e) => {
            const where = whereLabel(e);
            return (
              <li key={e.event_id}>
                {formatWhen(e.event_time)}: {whatLabel(e)}
                {where ? ` at ${where}` : ''}
                {e.destinations.length
                  ? ` to ${e.destinations.map(identifierLabel).join(', ')}`
                  : ''}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}
    </div>
  );
}

/** Upstream (what was commissioned, what it was made from) and downstream (packed, shipped, received, made into). */
export function TraceabilityView({ trace }: { trace: Traceability }) {
  const { upstream, downstream } = trace;
  return (
    <div className="form-grid">
      <div>
        <h3>Upstream</h3>
        <p>
          Lots: {trace.lots.length ? trace.lots.join(', ') : 'none'}. Scans: {trace.scans}.
        </p>
        <Events title="Commissioned" events={upstream.commissioned} />
        <Events title="Made from" events={upstream.transformed_from} />
      </div>
      <div>
        <h3>Downstream</h3>
        <p>
          Containers:{' '}
          {downstream.containers.length
            ? downstream.containers.map(identifierLabel).join(', ')
            : 'none'}
          .
        </p>
        <Events title="Packed" events={downstream.packed_into} />
        <Events title="Shipped" events={downstream.shipped} />
        <Events title="Received" events={downstream.received} />
        <Events title="Made into" events={downstream.transformed_into} />
      </div>
    </div>
  );
}

import type { JourneyStep } from '../api/journey-api';
import { formatWhen, identifierLabel, stepTitle, whatLabel, whereLabel } from '../journey';

/** The product's journey, oldest first: its events and, per day and country, its scans. */
export function JourneyTimeline({ steps }: { steps: readonly JourneyStep[] }) {
  if (!steps.length)
    return (
      <p className="muted">
        No events yet: generating codes, packing, shipping and receiving appear here.
      </p>
    );
  return (
    <ol className="timeline" aria-label="Product journey">
      {steps.map((step, i) => {
        if (step.kind === 'observation' && step.observation) {
          const o = step.observation;
          const place = o.country_name || o.country || 'an unknown place';
          return (
            <li key={`o-${o.day}-${o.country}-${i}`} className="timeline__step">
              <strong>Scanned</strong> <span>{o.day}</span>
              <div>
                {o.scans} scan{o.scans === 1 ? '' : 's'} in {place}
                {o.suspicious ? `, ${o.suspicious} suspicious` : ''}
                {o.not_recognised ? `, ${o.not_recognised} not recognised` : ''}
              </div>
            </li>
          );
        }
        const e = step.event;
        if (!e) return null;
        const where = whereLabel(e);
        return (
          <li key={e.event_id} className="timeline__step">
            <strong>{stepTitle(e)}</strong> <span>{formatWhen(e.event_time)}</span>
            <div>{whatLabel(e)}</div>
            {where ? <div className="muted">at {where}</div> : null}
            {e.destinations.length ? (
              <div className="muted">to {e.destinations.map(identifierLabel).join(', ')}</div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

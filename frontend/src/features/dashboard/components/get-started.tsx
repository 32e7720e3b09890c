import { CheckCircleIcon } from '@solar-icons/react/linear/check-circle';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { setGetStartedDismissed, useGetStarted, type GetStarted } from '../api/get-started-api';

/**
 * The dashboard's "Get started" checklist: the organisation's first steps,
 * each ticked by the server from the organisation's own data, each linking
 * to its page when this user may open it. Hidden per user on the server;
 * "Show get started" brings it back. Shows nothing while it loads, and
 * nothing once every step is done.
 */
export function GetStartedChecklist() {
  const { result, update } = useGetStarted();
  const [saving, setSaving] = useState(false);

  async function onDismiss(dismissed: boolean) {
    setSaving(true);
    const saved = await setGetStartedDismissed(dismissed);
    setSaving(false);
    if (!saved.ok) {
      toast.error(saved.message);
      return;
    }
    update((): GetStarted => saved.data);
  }

  // A failure here must not stand in the way of the dashboard: it says so quietly.
  if (result === null) return null;
  if (!result.ok) {
    return (
      <p className="muted section" role="status">
        {result.message}
      </p>
    );
  }
  const { steps, dismissed } = result.data;
  const done = steps.filter((s) => s.done).length;
  if (steps.length === 0 || done === steps.length) return null;

  if (dismissed) {
    return (
      <p className="section get-started__show">
        <Button variant="ghost" onClick={() => void onDismiss(false)} busy={saving}>
          Show get started
        </Button>
      </p>
    );
  }

  return (
    <CardSection title="Get started">
      <p className="muted">
        {done} of {steps.length} done. Each step is ticked when your organisation has done it.
      </p>
      <ol className="get-started" data-testid="get-started">
        {steps.map((step) => (
          <li
            key={step.key}
            className={`get-started__step ${step.done ? 'get-started__step--done' : ''}`}
          >
            <span className="get-started__mark" aria-hidden="true">
              {step.done ? <CheckCircleIcon /> : null}
            </span>
            <span>
              {step.path ? <Link to={step.path}>{step.title}</Link> : <strong>{step.title}</strong>}
              <span className="visually-hidden">{step.done ? ' (done)' : ' (to do)'}</span>
              <span className="get-started__hint">{step.hint}</span>
            </span>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <Button variant="secondary" onClick={() => void onDismiss(true)} busy={saving}>
          Hide get started
        </Button>
      </div>
    </CardSection>
  );
}

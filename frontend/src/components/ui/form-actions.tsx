import { Button } from '@/components/ui/button';

/** The Cancel / submit row at the foot of a modal form. */
export function CancelSubmitActions({
  onCancel,
  busy,
  submitLabel = 'Submit',
}: {
  onCancel: () => void;
  busy: boolean;
  submitLabel?: string;
}) {
  return (
    <div className="form-actions">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}

import { Button } from '@/components/ui/button';

/** The row at the foot of a form: the submit button, after Cancel when `onCancel` is given (modals). */
export function FormActions({
  onCancel,
  busy,
  submitLabel = 'Submit',
}: {
  onCancel?: () => void;
  busy: boolean;
  submitLabel?: string;
}) {
  return (
    <div className="form-actions">
      {onCancel ? (
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}

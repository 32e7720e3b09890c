import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ChoiceField } from '@/components/ui/choice-field';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import {
  createPrintJob,
  type LabelTemplate,
  type PrintFormat,
  type PrintJob,
} from '../api/labels-api';
import { codeJobOptionLabel, type CodeJobChoice } from '../code-job-choices';
import { SHEET_NAMES, SYMBOLOGY_NAMES, sizeText } from '../design-form';
import { labelMessages } from '../messages';
import { FORMATS } from '../print-jobs';

type PrintFormValues = {
  template_id: string;
  code_job_id: string;
  format: PrintFormat;
};

const EMPTY: PrintFormValues = { template_id: '', code_job_id: '', format: 'pdf' };

export function validatePrintForm(values: PrintFormValues): FieldErrors<PrintFormValues> {
  const errors: FieldErrors<PrintFormValues> = {};
  if (!values.template_id) errors.template_id = 'Choose the template to print with.';
  if (!values.code_job_id) errors.code_job_id = 'Choose the code job whose codes to print.';
  return errors;
}

function templateLabel(t: LabelTemplate): string {
  return `${t.name} — ${sizeText(t.design)}, ${SYMBOLOGY_NAMES[t.design.symbology]}, ${SHEET_NAMES[t.design.sheet]}`;
}

/**
 * "New print job": a template, a done code job (one label per code) and the
 * format. The server's reasons for a refusal are shown as it words them.
 */
export function NewPrintJobForm({
  templates,
  codeJobs,
  onCreated,
}: {
  templates: readonly LabelTemplate[];
  /** Done code jobs, newest first. */
  codeJobs: readonly CodeJobChoice[];
  onCreated: (job: PrintJob) => void;
}) {
  const form = useForm<PrintFormValues>(EMPTY, { clearErrorOnChange: true });

  const onSubmit = form.onSubmit(validatePrintForm, async (values) => {
    const result = await createPrintJob(values);
    if (!result.ok) return result.message;
    toast.success(labelMessages.printStarted(result.data.total));
    form.reset();
    onCreated(result.data);
    return null;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New print job">
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <div className="form-grid">
        <SelectField
          label="Template"
          name="template_id"
          {...form.field('template_id')}
          hint={
            templates.length === 0 ? (
              <>
                No templates yet: <Link to={paths.printLabels.href()}>design one</Link> first.
              </>
            ) : (
              <>
                Designed on the <Link to={paths.printLabels.href()}>Label designs</Link> page.
              </>
            )
          }
          options={[
            { value: '', label: 'Choose a template' },
            ...templates.map((t) => ({ value: t.id, label: templateLabel(t) })),
          ]}
          required
        />
        <SelectField
          label="Code job"
          name="code_job_id"
          {...form.field('code_job_id')}
          hint={
            codeJobs.length === 0
              ? 'No code job is done yet: generate codes on a product’s page first.'
              : 'Only jobs whose codes are all generated; one label per code.'
          }
          options={[
            { value: '', label: 'Choose a code job' },
            ...codeJobs.map((c) => ({ value: c.id, label: codeJobOptionLabel(c) })),
          ]}
          required
        />
      </div>
      <ChoiceField label="Format" options={FORMATS} {...form.choice('format')} />
      <FormActions busy={form.busy} submitLabel="Start printing" />
    </form>
  );
}

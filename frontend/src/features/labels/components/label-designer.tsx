import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField, TextField } from '@/components/ui/form-field';
import { useForm } from '@/hooks/use-form';
import type { ApiResult } from '@/lib/api/call-api';
import {
  createLabelTemplate,
  updateLabelTemplate,
  type LabelTemplate,
  type Sheet,
  type Symbology,
} from '../api/labels-api';
import {
  codeJobDetail,
  codeJobOptionLabel,
  printable,
  type CodeJobChoice,
} from '../code-job-choices';
import {
  SHEETS,
  SYMBOLOGIES,
  TEXT_LINES,
  designFormValues,
  designHints,
  designOf,
  emptyDesignForm,
  sheetSize,
  templateBody,
  validateDesign,
  validateDesignForm,
  withSheet,
  type DesignFormValues,
} from '../design-form';
import { labelMessages } from '../messages';
import { LabelPreview } from './label-preview';

/** The server's refusal of the name (taken, say), shown there until the name changes. */
interface NameError {
  value: string;
  message: string;
}

/** A refusal about the name: a name another template has (409), or one the server cannot take. */
function isAboutName(result: Extract<ApiResult<unknown>, { ok: false }>): boolean {
  return (
    result.kind === 'status' &&
    (result.status === 409 || (result.status === 400 && /^name\b/i.test(result.message)))
  );
}

/**
 * The label designer: a template's name and design, with the live preview
 * of the label beside it (below it on narrow screens), drawn with a sample
 * code or the first code of a done code job. Saves a new template, or
 * `original`'s changes; the server's reasons for a refusal are shown as it
 * words them.
 */
export function LabelDesigner({
  original,
  codeJobs,
  focusName,
  onSaved,
  onCancel,
}: {
  /** The template being edited; absent for a new one. */
  original: LabelTemplate | null;
  /** The code jobs a preview may show a code of (loading: null). */
  codeJobs: ApiResult<CodeJobChoice[]> | null;
  /** Focus the name when the designer opens (after "Edit"). */
  focusName: boolean;
  onSaved: (template: LabelTemplate, created: boolean) => void;
  /** Leaves the template being edited, for a new one. */
  onCancel: () => void;
}) {
  const form = useForm<DesignFormValues>(
    original ? designFormValues(original) : emptyDesignForm(),
    { clearErrorOnChange: true },
  );
  const [nameError, setNameError] = useState<NameError | null>(null);
  const [previewJob, setPreviewJob] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusName) nameRef.current?.focus();
  }, [focusName]);

  /** Sets one field as if it had been typed (checkboxes and the sheet's size). */
  function set<K extends keyof DesignFormValues>(name: K, value: DesignFormValues[K]) {
    form
      .field(name)
      .onChange({ target: { value: value as string } } as ChangeEvent<HTMLInputElement>);
  }

  function chooseSheet(sheet: Sheet) {
    const next = withSheet(form.values, sheet);
    set('sheet', sheet);
    set('width_mm', next.width_mm);
    set('height_mm', next.height_mm);
  }

  const values = form.values;
  const design = designOf(values);
  const problem = design ? null : (Object.values(validateDesign(values))[0] ?? null);
  const choices = codeJobs?.ok ? printable(codeJobs.data) : [];
  const chosen = choices.find((c) => c.id === previewJob);
  const source = chosen
    ? `the first code of ${chosen.product}, ${codeJobDetail(chosen)}`
    : 'a sample code';
  const size = sheetSize(values.sheet);
  const name = form.field('name');

  const onSubmit = form.onSubmit(validateDesignForm, async (submitted) => {
    setNameError(null);
    const body = templateBody(submitted);
    if (!body) return labelMessages.templateNotSaved;
    const result = original
      ? await updateLabelTemplate(original.id, body)
      : await createLabelTemplate(body);
    if (result.ok) {
      toast.success(
        original
          ? labelMessages.templateUpdated(result.data.name)
          : labelMessages.templateCreated(result.data.name),
      );
      onSaved(result.data, !original);
      return null;
    }
    if (isAboutName(result)) {
      setNameError({ value: submitted.name, message: result.message });
      return null;
    }
    return result.message;
  });

  const number = (field: 'width_mm' | 'height_mm' | 'font_size_pt' | 'margin_mm') => ({
    ...form.field(field),
    name: field,
    autoComplete: 'off',
    inputMode: 'decimal' as const,
    spellCheck: false,
  });

  return (
    <div className="label-designer">
      <form
        className="label-designer__form"
        onSubmit={onSubmit}
        noValidate
        aria-label={original ? `Edit template ${original.name}` : 'New template'}
      >
        {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
        <TextField
          ref={nameRef}
          label="Name"
          name="name"
          autoComplete="off"
          hint={designHints.name}
          {...name}
          error={
            name.error ?? (nameError && nameError.value === values.name ? nameError.message : null)
          }
          required
        />
        <SelectField
          label="Sheet"
          name="sheet"
          hint={size ? designHints.sheetSize(size) : 'Any size, one label per page or per print.'}
          value={values.sheet}
          onChange={(e) => chooseSheet(e.target.value as Sheet)}
          options={SHEETS}
        />
        <div className="form-grid">
          <TextField label="Width (mm)" hint={designHints.size} {...number('width_mm')} />
          <TextField label="Height (mm)" hint={designHints.size} {...number('height_mm')} />
        </div>
        <SelectField
          label="Barcode"
          name="symbology"
          value={values.symbology}
          onChange={(e) => set('symbology', e.target.value as Symbology)}
          options={SYMBOLOGIES}
        />
        <fieldset className="fieldset">
          <legend className="field__label">Text lines</legend>
          <div className="check-grid">
            {TEXT_LINES.map((line) => (
              <label key={line.value} className="check">
                <input
                  type="checkbox"
                  name={line.value}
                  checked={values[line.value] === 'yes'}
                  onChange={(e) => set(line.value, e.target.checked ? 'yes' : '')}
                />
                {line.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="form-grid">
          <TextField label="Font size (pt)" hint={designHints.font} {...number('font_size_pt')} />
          <TextField label="Margin (mm)" hint={designHints.margin} {...number('margin_mm')} />
        </div>
        <FormActions
          busy={form.busy}
          onCancel={original ? onCancel : undefined}
          submitLabel={original ? 'Save changes' : 'Save template'}
        />
      </form>
      <div className="label-designer__preview">
        <h3>Preview</h3>
        <SelectField
          label="Show the label with"
          value={chosen ? chosen.id : ''}
          onChange={(e) => setPreviewJob(e.target.value)}
          hint={
            codeJobs && !codeJobs.ok
              ? `${codeJobs.message} The preview shows a sample code.`
              : 'A sample code, or the first code of a done code job.'
          }
          options={[
            { value: '', label: 'A sample code' },
            ...choices.map((c) => ({ value: c.id, label: codeJobOptionLabel(c) })),
          ]}
        />
        <LabelPreview
          design={design}
          problem={problem}
          codeJobId={chosen?.id ?? ''}
          source={source}
        />
      </div>
    </div>
  );
}

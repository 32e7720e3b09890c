import type { FieldErrors } from '@/hooks/use-form';
import type { NewCodeJob } from './api/codes-api';
import { newCodeJobBody, validateCodeJobForm, type CodeJobFormValues } from './code-job-form';

/**
 * The code selector's rules (`/gme/codeDownload`): a product of the chosen
 * company, a batch (one the product has, or a new lot number with its
 * manufacturing and expiry dates, which Schedule H2 requires on the pack)
 * and a quantity. The quantity, lot number and dates follow the "Generate
 * codes" form's rules (`code-job-form.ts`), the server's.
 */
export type CodeSelectorValues = CodeJobFormValues & {
  /** `existing` or `new`. */
  batch_mode: string;
  /** The existing batch's lot number. */
  batch: string;
};

export function emptyCodeSelector(hasBatches: boolean): CodeSelectorValues {
  return {
    quantity: '',
    lot_number: '',
    manufactured_on: '',
    expires_on: '',
    batch_mode: hasBatches ? 'existing' : 'new',
    batch: '',
  };
}

/** The values as the "Generate codes" rules see them: an existing batch is its number, undated. */
function asCodeJobForm(values: CodeSelectorValues): CodeJobFormValues {
  if (values.batch_mode === 'existing')
    return {
      quantity: values.quantity,
      lot_number: values.batch,
      manufactured_on: '',
      expires_on: '',
    };
  return {
    quantity: values.quantity,
    lot_number: values.lot_number,
    manufactured_on: values.manufactured_on,
    expires_on: values.expires_on,
  };
}

/** The errors in `values`, field by field. */
export function validateCodeSelector(values: CodeSelectorValues): FieldErrors<CodeSelectorValues> {
  const errors: FieldErrors<CodeSelectorValues> = validateCodeJobForm(asCodeJobForm(values));
  if (values.batch_mode === 'existing') {
    delete errors.lot_number;
    if (!values.batch) errors.batch = 'Choose a batch, or choose “A new batch”.';
    return errors;
  }
  if (!values.lot_number.trim()) errors.lot_number = 'Enter the new batch’s lot number.';
  if (!values.manufactured_on) errors.manufactured_on ??= 'Enter the manufacturing date.';
  if (!values.expires_on) errors.expires_on ??= 'Enter the expiry date.';
  return errors;
}

/** The body of `createCodeJob` for valid `values`. */
export function codeSelectorBody(productId: string, values: CodeSelectorValues): NewCodeJob {
  return newCodeJobBody(productId, asCodeJobForm(values));
}

import type { FieldErrors } from '@/hooks/use-form';
import { formatNumber } from '@/lib/format';
import {
  LOT_MAX,
  LOT_PATTERN,
  SET_82_CHARACTERS,
  charactersOutsideSet82,
  gtinProblem,
} from '@/lib/gs1';
import { isDay } from '@/lib/validation';
import type { BatchForm } from './api/batch-updates-api';
import { MAX_ROWS } from './batch-updates';

/**
 * The manual form's rules, the same as the server's
 * (`backend/src/batch_updates`): the codes by a range of a code job and/or a
 * list of serials (at most 10,000), then one batch's data: a GTIN with its
 * check digit, a batch number of GS1's character set 82, a manufacturing
 * date not in the future, an expiry date after it and the licence number.
 */

export type BatchFormValues = {
  code_job_id: string;
  first: string;
  last: string;
  serials: string;
  gtin: string;
  batch_number: string;
  manufacturing_date: string;
  expiry_date: string;
  licence_number: string;
};

export const MAX_SERIALS = 10_000;
export const MAX_LICENCE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERIAL = /^[0-9A-Za-z]{11}$/;
const POSITION = /^\d{1,10}$/;

export const batchFormHints = {
  serials: `One code a line: its 11-character serial or its URI. At most ${formatNumber(MAX_SERIALS)}.`,
  gtin: 'The GTIN the codes were generated for: 8, 12, 13 or 14 digits with the check digit.',
  batch: `1 to ${LOT_MAX} ${SET_82_CHARACTERS} (no spaces).`,
  licence: 'The manufacturing licence number (Schedule H2), 1 to 50 characters.',
  range: 'Positions in the job, as in its download: 1 is its first code.',
} as const;

export function emptyBatchForm(): BatchFormValues {
  return {
    code_job_id: '',
    first: '',
    last: '',
    serials: '',
    gtin: '',
    batch_number: '',
    manufacturing_date: '',
    expiry_date: '',
    licence_number: '',
  };
}

/** Why `gtin` is no GTIN, in the server's words; null when it is one. */
export function gtinError(gtin: string): string | null {
  switch (gtinProblem(gtin)) {
    case 'format':
      return 'Enter a GTIN of 8, 12, 13 or 14 digits.';
    case 'check-digit':
      return 'The check digit is wrong: check the number on the product’s barcode.';
    case null:
      return null;
  }
}

/** Today as `YYYY-MM-DD`, in the person's own time zone. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The serials of the text area: one a line, blank lines left out. */
export function serialLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A serial, or a URI ending in `/21/` and a serial (as the server reads codes). */
function isCode(line: string): boolean {
  if (SERIAL.test(line)) return true;
  const path = line.split(/[?#]/)[0] ?? '';
  const at = path.lastIndexOf('/21/');
  return at >= 0 && SERIAL.test(path.slice(at + 4).replace(/\/+$/, ''));
}

/** The form's errors, field by field; `now` is today (`YYYY-MM-DD`). */
export function validateBatchForm(
  values: BatchFormValues,
  now: string = today(),
): FieldErrors<BatchFormValues> {
  const errors: FieldErrors<BatchFormValues> = {};
  const job = values.code_job_id.trim();
  const first = values.first.trim();
  const last = values.last.trim();
  const ranged = Boolean(job || first || last);
  const serials = serialLines(values.serials);

  if (ranged) {
    if (!job) errors.code_job_id = 'Choose the code job of the range.';
    else if (!UUID.test(job)) errors.code_job_id = 'Enter the code job’s id (a UUID).';
    const from = POSITION.test(first) ? Number(first) : null;
    const to = POSITION.test(last) ? Number(last) : null;
    if (from === null || from < 1) errors.first = 'Enter the first position, 1 or more.';
    if (to === null || to < 1) errors.last = 'Enter the last position, 1 or more.';
    else if (from !== null && from >= 1 && to < from) {
      errors.last = 'The last position must not be before the first.';
    } else if (from !== null && to - from >= MAX_ROWS) {
      errors.last = `A range holds at most ${formatNumber(MAX_ROWS)} codes.`;
    }
  }
  if (!ranged && serials.length === 0) {
    errors.serials = 'Give the codes: a range of a code job, a list of serials, or both.';
  } else if (serials.length > MAX_SERIALS) {
    errors.serials = `${formatNumber(serials.length)} serials: at most ${formatNumber(MAX_SERIALS)}. Upload a file for more.`;
  } else {
    const bad = serials.findIndex((line) => !isCode(line));
    if (bad >= 0) {
      errors.serials = `“${serials[bad]}” is not a code’s 11-character serial (letters and digits) or its URI.`;
    }
  }

  const gtin = gtinError(values.gtin.trim());
  if (gtin) errors.gtin = gtin;

  const batch = values.batch_number.trim();
  if (!batch) errors.batch_number = 'Enter the batch number.';
  else if (!LOT_PATTERN.test(batch)) {
    const bad = charactersOutsideSet82(batch);
    errors.batch_number = bad
      ? `A batch number cannot hold ${bad}. Use ${SET_82_CHARACTERS}.`
      : 'Use at most 20 characters.';
  }

  const made = values.manufacturing_date;
  const expires = values.expiry_date;
  if (!isDay(made)) errors.manufacturing_date = 'Enter the manufacturing date.';
  else if (made > now)
    errors.manufacturing_date = 'The manufacturing date cannot be in the future.';
  if (!isDay(expires)) errors.expiry_date = 'Enter the expiry date.';
  else if (isDay(made) && expires <= made) {
    errors.expiry_date = 'The expiry date must be after the manufacturing date.';
  }

  const licence = values.licence_number.trim();
  if (!licence) {
    errors.licence_number =
      'Enter the manufacturing licence number: Schedule H2 requires it on the pack.';
  } else if ([...licence].length > MAX_LICENCE || /\p{Cc}/u.test(licence)) {
    errors.licence_number = `Use 1 to ${MAX_LICENCE} characters, on one line.`;
  }
  return errors;
}

/** The request body of valid `values`. */
export function batchFormBody(values: BatchFormValues): BatchForm {
  const job = values.code_job_id.trim();
  return {
    ...(job
      ? {
          range: {
            code_job_id: job,
            first: Number(values.first.trim()),
            last: Number(values.last.trim()),
          },
        }
      : {}),
    serials: serialLines(values.serials),
    gtin: values.gtin.trim(),
    batch_number: values.batch_number.trim(),
    manufacturing_date: values.manufacturing_date,
    expiry_date: values.expiry_date,
    licence_number: values.licence_number.trim(),
  };
}

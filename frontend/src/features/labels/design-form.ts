import type { FieldErrors } from '@/hooks/use-form';
import type {
  Design,
  LabelFields,
  LabelTemplate,
  NewLabelTemplate,
  Sheet,
  Symbology,
} from './api/labels-api';

/**
 * The label designer's form and its rules, the same as the server's
 * (`backend/src/labels`): a name of 1 to 100 characters once trimmed; width
 * and height 10 to 300 mm; font 4 to 36 pt; margin 0 to 20 mm. Whether the
 * barcode and the text lines fit, and whether the size is the sheet's, only
 * the server's renderer can say: the preview shows its answer.
 */

/** A checkbox's value in the form: `'yes'` when ticked. */
type Flag = 'yes' | '';

export type DesignFormValues = {
  name: string;
  width_mm: string;
  height_mm: string;
  symbology: Symbology;
  sheet: Sheet;
  product_name: Flag;
  gtin: Flag;
  lot: Flag;
  expiry: Flag;
  serial: Flag;
  font_size_pt: string;
  margin_mm: string;
};

export type FieldKey = keyof LabelFields;

export const NAME_MAX = 100;
export const SIZE_MIN_MM = 10;
export const SIZE_MAX_MM = 300;
export const FONT_MIN_PT = 4;
export const FONT_MAX_PT = 36;
export const MARGIN_MAX_MM = 20;

/** A sheet's label size, millimetres (what the server's sheet presets accept). */
export interface LabelSize {
  width_mm: number;
  height_mm: number;
}

/** The sheets, in the order the select shows them, with the size of their labels. */
export const SHEETS: readonly { value: Sheet; label: string; size: LabelSize | null }[] = [
  { value: 'single', label: 'Single labels, any size (thermal or roll printers)', size: null },
  {
    value: 'a4_3x8',
    label: 'A4, 3 × 8 (70 × 37 mm)',
    size: { width_mm: 70, height_mm: 37 },
  },
  {
    value: 'a4_l7163',
    label: 'A4, Avery L7163 (99.1 × 38.1 mm)',
    size: { width_mm: 99.1, height_mm: 38.1 },
  },
  {
    value: 'letter_5160',
    label: 'US Letter, Avery 5160 (66.7 × 25.4 mm)',
    size: { width_mm: 66.7, height_mm: 25.4 },
  },
  {
    value: 'letter_5163',
    label: 'US Letter, Avery 5163 (101.6 × 50.8 mm)',
    size: { width_mm: 101.6, height_mm: 50.8 },
  },
];

/** The size of `sheet`'s labels; null for single labels (any size). */
export function sheetSize(sheet: Sheet): LabelSize | null {
  return SHEETS.find((s) => s.value === sheet)?.size ?? null;
}

/** A short name of the sheet, for the templates table: `A4, 3 × 8`. */
export const SHEET_NAMES: Record<Sheet, string> = {
  single: 'Single labels',
  a4_3x8: 'A4, 3 × 8',
  a4_l7163: 'A4, Avery L7163',
  letter_5160: 'Letter, Avery 5160',
  letter_5163: 'Letter, Avery 5163',
};

export const SYMBOLOGIES: readonly { value: Symbology; label: string }[] = [
  { value: 'qr', label: 'QR code (GS1 Digital Link)' },
  { value: 'datamatrix', label: 'GS1 DataMatrix' },
];

export const SYMBOLOGY_NAMES: Record<Symbology, string> = {
  qr: 'QR code',
  datamatrix: 'GS1 DataMatrix',
};

/** The text lines a label may print beside its barcode, in the label's order. */
export const TEXT_LINES: readonly { value: FieldKey; label: string }[] = [
  { value: 'product_name', label: 'Product name' },
  { value: 'gtin', label: 'GTIN' },
  { value: 'lot', label: 'Lot number' },
  { value: 'expiry', label: 'Expiry date' },
  { value: 'serial', label: 'Serial number' },
];

export const designHints = {
  name: `Up to ${NAME_MAX} characters; each template’s name is its own.`,
  size: `${SIZE_MIN_MM} to ${SIZE_MAX_MM} mm.`,
  sheetSize: (size: LabelSize) =>
    `This sheet’s labels are ${formatMm(size.width_mm)} × ${formatMm(size.height_mm)} mm.`,
  font: `${FONT_MIN_PT} to ${FONT_MAX_PT} pt.`,
  margin: `The blank border, 0 to ${MARGIN_MAX_MM} mm.`,
} as const;

/** `70`, `99.1`: millimetres as typed and shown (at most one decimal). */
export function formatMm(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A new template: an A4 sheet of 70 × 37 mm labels with a QR code and every text line. */
export function emptyDesignForm(): DesignFormValues {
  return {
    name: '',
    width_mm: '70',
    height_mm: '37',
    symbology: 'qr',
    sheet: 'a4_3x8',
    product_name: 'yes',
    gtin: 'yes',
    lot: 'yes',
    expiry: 'yes',
    serial: 'yes',
    font_size_pt: '7',
    margin_mm: '2',
  };
}

const flag = (on: boolean): Flag => (on ? 'yes' : '');

export function designFormValues(
  template: Pick<LabelTemplate, 'name' | 'design'>,
): DesignFormValues {
  const { design } = template;
  return {
    name: template.name,
    width_mm: formatMm(design.width_mm),
    height_mm: formatMm(design.height_mm),
    symbology: design.symbology,
    sheet: design.sheet,
    product_name: flag(design.fields.product_name),
    gtin: flag(design.fields.gtin),
    lot: flag(design.fields.lot),
    expiry: flag(design.fields.expiry),
    serial: flag(design.fields.serial),
    font_size_pt: formatMm(design.font_size_pt),
    margin_mm: formatMm(design.margin_mm),
  };
}

const DECIMAL = /^\d+(?:[.,]\d+)?$|^[.,]\d+$/;

/** The number `text` spells (`70`, `99.1`, `99,1`), or null. */
export function parseDecimal(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : null;
}

/** Control characters and text-direction marks, which the server's names refuse. */
const NOT_PLAIN = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

type NumberRule = { what: string; unit: 'mm' | 'pt'; min: number; max: number; example: string };

function numberProblem(text: string, rule: NumberRule): string | undefined {
  const range = `${rule.min} to ${rule.max} ${rule.unit}`;
  if (!text.trim()) return `Enter the ${rule.what}, ${range}.`;
  const value = parseDecimal(text);
  if (value === null)
    return `The ${rule.what} must be a number of ${rule.unit === 'mm' ? 'millimetres' : 'points'}, such as ${rule.example}.`;
  if (value < rule.min || value > rule.max) return `The ${rule.what} must be ${range}.`;
  return undefined;
}

const NUMBER_RULES = {
  width_mm: {
    what: 'width',
    unit: 'mm',
    min: SIZE_MIN_MM,
    max: SIZE_MAX_MM,
    example: '70 or 99.1',
  },
  height_mm: {
    what: 'height',
    unit: 'mm',
    min: SIZE_MIN_MM,
    max: SIZE_MAX_MM,
    example: '37 or 38.1',
  },
  font_size_pt: { what: 'font size', unit: 'pt', min: FONT_MIN_PT, max: FONT_MAX_PT, example: '8' },
  margin_mm: { what: 'margin', unit: 'mm', min: 0, max: MARGIN_MAX_MM, example: '2' },
} as const satisfies Record<string, NumberRule>;

/** The errors of the design's fields (all but the name), field by field. */
export function validateDesign(values: DesignFormValues): FieldErrors<DesignFormValues> {
  const errors: FieldErrors<DesignFormValues> = {};
  for (const [field, rule] of Object.entries(NUMBER_RULES) as [
    keyof typeof NUMBER_RULES,
    NumberRule,
  ][]) {
    const problem = numberProblem(values[field], rule);
    if (problem) errors[field] = problem;
  }
  return errors;
}

/** The errors of the whole form, for saving: the name, then the design. */
export function validateDesignForm(values: DesignFormValues): FieldErrors<DesignFormValues> {
  const errors: FieldErrors<DesignFormValues> = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Enter a name for the template.';
  else if ([...name].length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;
  else if (NOT_PLAIN.test(name))
    errors.name = 'Remove control characters and text-direction marks.';
  return { ...errors, ...validateDesign(values) };
}

/** The design the form describes, or null while a field is not a valid number in range. */
export function designOf(values: DesignFormValues): Design | null {
  if (Object.keys(validateDesign(values)).length > 0) return null;
  const number = (text: string) => parseDecimal(text) ?? 0;
  return {
    width_mm: number(values.width_mm),
    height_mm: number(values.height_mm),
    symbology: values.symbology,
    sheet: values.sheet,
    fields: {
      product_name: values.product_name === 'yes',
      gtin: values.gtin === 'yes',
      lot: values.lot === 'yes',
      expiry: values.expiry === 'yes',
      serial: values.serial === 'yes',
    },
    font_size_pt: number(values.font_size_pt),
    margin_mm: number(values.margin_mm),
  };
}

/** The body of `createLabelTemplate` / `updateLabelTemplate` for valid `values`. */
export function templateBody(values: DesignFormValues): NewLabelTemplate | null {
  const design = designOf(values);
  return design ? { name: values.name.trim(), design } : null;
}

/**
 * The values after choosing `sheet`: a sheet of labels fills in its label
 * size; single labels keep the size typed.
 */
export function withSheet(values: DesignFormValues, sheet: Sheet): DesignFormValues {
  const size = sheetSize(sheet);
  return size
    ? { ...values, sheet, width_mm: formatMm(size.width_mm), height_mm: formatMm(size.height_mm) }
    : { ...values, sheet };
}

/** `70 × 37 mm`. */
export function sizeText(design: Pick<Design, 'width_mm' | 'height_mm'>): string {
  return `${formatMm(design.width_mm)} × ${formatMm(design.height_mm)} mm`;
}

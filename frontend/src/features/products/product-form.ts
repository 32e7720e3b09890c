import type { FieldErrors } from '@/hooks/use-form';
import { gtinProblem } from '@/lib/gs1';
import type { NewProduct, Product, ProductChange } from './api/products-api';
import { sameAttributes, type Attribute } from './product-attributes';

/**
 * The product form's rules, the same as the server's (`backend/src/products`):
 * name 1–200 characters once trimmed, skuid by its pattern, GTIN with its
 * check digit, category optional 1–100, description at most 5000, unit of
 * measure by its pattern. `requires_inspection` is `'true'` or `'false'`
 * (every form value is text).
 */

export type ProductFormValues = {
  product_name: string;
  skuid: string;
  gtin: string;
  category: string;
  product_description: string;
  unit: string;
  requires_inspection: string;
};

export const NAME_MAX = 200;
export const CATEGORY_MAX = 100;
export const DESCRIPTION_MAX = 5000;
export const SKUID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
/** The unit of measure (server `products::Unit`, the table's CHECK). */
export const UNIT_PATTERN = /^[a-z][a-z0-9_]{0,15}$/;
export const DEFAULT_UNIT = 'each';

export const productFormHints = {
  skuid: "Up to 64 letters, digits, '.', '_', '/' or '-', starting with a letter or digit.",
  gtin: 'The 8, 12, 13 or 14 digits under the barcode.',
  category: `Optional, up to ${CATEGORY_MAX} characters.`,
  description: `Optional, up to ${DESCRIPTION_MAX.toLocaleString('en')} characters.`,
  unit: 'What its quantities are counted in: each, kg, g, l, ml, m… (lower-case letters, digits or _).',
  requiresInspection: 'Its new lots wait in quarantine until QA releases them.',
} as const;

/** Characters as people count them (code points, as the server does). */
function length(text: string): number {
  return [...text].length;
}

/** Control characters and text-direction marks, which one-line fields refuse (server `plain_text`). */
const NOT_PLAIN = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** True when `text` has a control character other than tab and line breaks (the description refuses those). */
function hasControlBesidesLineBreaks(text: string): boolean {
  return /\p{Cc}/u.test(text.replace(/[\t\n\r]/g, ''));
}

export function emptyProductForm(): ProductFormValues {
  return {
    product_name: '',
    skuid: '',
    gtin: '',
    category: '',
    product_description: '',
    unit: DEFAULT_UNIT,
    requires_inspection: 'false',
  };
}

export function productFormValues(product: Product): ProductFormValues {
  return {
    product_name: product.product_name,
    skuid: product.skuid,
    gtin: product.gtin,
    category: product.category,
    product_description: product.product_description,
    unit: product.unit,
    requires_inspection: String(product.requires_inspection),
  };
}

/**
 * The errors in `values`, field by field. `original` is the product being
 * edited: a category it has cannot be removed (the server refuses an empty one).
 */
export function validateProductForm(
  values: ProductFormValues,
  original?: Product,
): FieldErrors<ProductFormValues> {
  const errors: FieldErrors<ProductFormValues> = {};

  const name = values.product_name.trim();
  if (!name) errors.product_name = 'Enter the product’s name.';
  else if (length(name) > NAME_MAX) errors.product_name = `Use at most ${NAME_MAX} characters.`;
  else if (NOT_PLAIN.test(name))
    errors.product_name = 'Remove control characters and text-direction marks.';

  const skuid = values.skuid.trim();
  if (!skuid) errors.skuid = 'Enter the SKU id.';
  else if (!SKUID_PATTERN.test(skuid)) errors.skuid = `Use ${productFormHints.skuid.toLowerCase()}`;

  const gtin = values.gtin.trim();
  const problem = gtin ? gtinProblem(gtin) : null;
  if (!gtin) errors.gtin = 'Enter the GTIN.';
  else if (problem === 'format') errors.gtin = 'A GTIN has 8, 12, 13 or 14 digits, nothing else.';
  else if (problem === 'check-digit')
    errors.gtin = 'The check digit (the last digit) is wrong: check the number on the barcode.';

  const category = values.category.trim();
  if (!category) {
    if (original?.category)
      errors.category =
        'A category cannot be removed once set: enter one, or keep the current one.';
  } else if (length(category) > CATEGORY_MAX)
    errors.category = `Use at most ${CATEGORY_MAX} characters.`;
  else if (NOT_PLAIN.test(category))
    errors.category = 'Remove control characters and text-direction marks.';

  const description = values.product_description;
  if (length(description) > DESCRIPTION_MAX)
    errors.product_description = `Use at most ${DESCRIPTION_MAX.toLocaleString('en')} characters.`;
  else if (hasControlBesidesLineBreaks(description))
    errors.product_description = 'Remove control characters (line breaks and tabs are fine).';

  const unit = values.unit.trim();
  if (!unit) errors.unit = 'Enter the unit (each, kg, l, m…).';
  else if (!UNIT_PATTERN.test(unit))
    errors.unit =
      'Use up to 16 lower-case letters, digits or _, starting with a letter (each, kg, ml).';

  return errors;
}

/** The body of `createProduct` for valid `values`; empty optional fields are left out. */
export function newProductBody(
  values: ProductFormValues,
  attributes: readonly Attribute[] = [],
): NewProduct {
  const category = values.category.trim();
  const description = values.product_description;
  const unit = values.unit.trim();
  return {
    product_name: values.product_name.trim(),
    skuid: values.skuid.trim(),
    gtin: values.gtin.trim(),
    ...(category ? { category } : {}),
    ...(description.trim() ? { product_description: description } : {}),
    ...(attributes.length > 0 ? { attributes: [...attributes] } : {}),
    ...(values.requires_inspection === 'true' ? { requires_inspection: true } : {}),
    ...(unit && unit !== DEFAULT_UNIT ? { unit } : {}),
  };
}

/** The GTIN-14 the server stores for a GTIN-8, -12, -13 or -14. */
function asGtin14(gtin: string): string {
  return gtin.padStart(14, '0');
}

/**
 * The body of `updateProduct`: only the fields that differ from `original`;
 * changed attributes are sent as the whole list (it replaces the stored one).
 */
export function productChangeBody(
  original: Product,
  values: ProductFormValues,
  attributes: readonly Attribute[] = original.attributes,
): ProductChange {
  const change: ProductChange = {};
  const name = values.product_name.trim();
  if (name !== original.product_name) change.product_name = name;
  const skuid = values.skuid.trim();
  if (skuid !== original.skuid) change.skuid = skuid;
  const gtin = values.gtin.trim();
  if (asGtin14(gtin) !== original.gtin) change.gtin = gtin;
  const category = values.category.trim();
  if (category && category !== original.category) change.category = category;
  if (values.product_description !== original.product_description)
    change.product_description = values.product_description;
  if (!sameAttributes(attributes, original.attributes)) change.attributes = [...attributes];
  const inspection = values.requires_inspection === 'true';
  if (inspection !== original.requires_inspection) change.requires_inspection = inspection;
  const unit = values.unit.trim();
  if (unit !== original.unit) change.unit = unit;
  return change;
}

/** A company a product may belong to (client A's, by CIN); the route passes them in. */
export interface CompanyChoice {
  id: string;
  cin: string;
  name: string;
}

/** The company select's options: "No company" while none is set (once set, one cannot be removed). */
export function companyOptions(
  companies: readonly CompanyChoice[],
  current: string | undefined,
): { value: string; label: string }[] {
  return [
    ...(current ? [] : [{ value: '', label: 'No company' }]),
    ...companies.map((c) => ({ value: c.id, label: `${c.cin} — ${c.name}` })),
  ];
}

/** `body` with the chosen company, when one is chosen and it differs from the product's. */
export function withCompany<T extends { company_id?: string }>(
  body: T,
  companyId: string,
  original?: { company_id?: string },
): T {
  return companyId && companyId !== original?.company_id
    ? { ...body, company_id: companyId }
    : body;
}

/**
 * The form field a server message is about: the server names the field
 * ("gtin has a wrong check digit…", "Another product already has this skuid.").
 */
export function fieldOfServerMessage(message: string): keyof ProductFormValues | null {
  const text = message.toLowerCase();
  if (/\bproduct_description\b/.test(text)) return 'product_description';
  if (/\bproduct_name\b/.test(text)) return 'product_name';
  if (/\bcategory\b/.test(text)) return 'category';
  if (/\bskuid\b/.test(text)) return 'skuid';
  if (/\bgtin\b/.test(text)) return 'gtin';
  if (/\bunit\b/.test(text)) return 'unit';
  return null;
}

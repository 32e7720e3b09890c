import type { PassportData } from './api/passports-api';

/**
 * The passport editor's model (every value as typed, numbers as text) and
 * the server's rules (backend/src/passports/mod.rs, ADR 0015), checked
 * before anything is sent; the server checks them again.
 */
export type Visibility = 'public' | 'restricted';

export const LINK_SECTIONS = [
  'compliance_documents',
  'user_manuals',
  'safety_information',
] as const;
export type LinkSectionKey = (typeof LINK_SECTIONS)[number];

export const SECTION_TITLES = {
  identification: 'Identification',
  compliance_documents: 'Compliance documents',
  user_manuals: 'User manuals',
  safety_information: 'Safety information',
  manufacturer: 'Manufacturer',
  importer: 'Importer',
  responsible_operator: 'Responsible economic operator',
  substances_of_concern: 'Substances of concern',
  materials: 'Materials',
  repair: 'Repair',
  recycling: 'Recycling',
} as const;
export type SectionKey = keyof typeof SECTION_TITLES;
export const SECTION_KEYS = Object.keys(SECTION_TITLES) as SectionKey[];

/** The sections of single fields, each of which may have a visibility of its own. */
export const FIELD_SECTIONS = [
  'identification',
  'manufacturer',
  'importer',
  'responsible_operator',
  'repair',
  'recycling',
] as const;
export type FieldSectionKey = (typeof FIELD_SECTIONS)[number];

export type Rule = 'short' | 'long' | 'eori' | 'commodity';

/** The single-value fields of each section, in the order shown. */
export const TEXT_FIELDS: readonly { key: string; label: string; rule: Rule; hint?: string }[] = [
  { key: 'identification.unique_product_id', label: 'Unique product identifier', rule: 'short' },
  {
    key: 'identification.commodity_code',
    label: 'Commodity code (HS/CN)',
    rule: 'commodity',
    hint: '6 digits (HS), 8 (CN) or 10 (TARIC), no dots.',
  },
  { key: 'manufacturer.name', label: 'Name', rule: 'short' },
  { key: 'manufacturer.operator_id', label: 'Operator identifier', rule: 'short' },
  { key: 'manufacturer.contact', label: 'Contact', rule: 'short' },
  { key: 'importer.name', label: 'Name', rule: 'short' },
  {
    key: 'importer.eori',
    label: 'EORI number',
    rule: 'eori',
    hint: 'Country code and up to 15 letters or digits, e.g. DE123456789012345.',
  },
  { key: 'importer.contact', label: 'Contact', rule: 'short' },
  { key: 'responsible_operator.name', label: 'Name', rule: 'short' },
  { key: 'responsible_operator.operator_id', label: 'Operator identifier', rule: 'short' },
  { key: 'responsible_operator.contact', label: 'Contact', rule: 'short' },
  { key: 'repair.instructions', label: 'Repair instructions', rule: 'long' },
  { key: 'repair.spare_parts_availability', label: 'Spare parts availability', rule: 'short' },
  { key: 'recycling.instructions', label: 'Recycling instructions', rule: 'long' },
  { key: 'recycling.recyclability', label: 'Recyclability', rule: 'short' },
];

/** The facility identifiers' key (they have a visibility of their own too). */
export const FACILITY_IDS = 'manufacturer.facility_ids';

/** A list item's own visibility; absent, its section's. */
interface OwnVisibility {
  visibility?: Visibility;
}
export interface LinkRow extends OwnVisibility {
  title: string;
  url: string;
}
export interface SubstanceRow extends OwnVisibility {
  name: string;
  cas_number: string;
  concentration_percent: string;
  location: string;
}
export interface MaterialRow extends OwnVisibility {
  name: string;
  share_percent: string;
  recycled_percent: string;
}

export interface PassportModel {
  /** Each section's visibility: that of its fields (and items) without one of their own. */
  visibility: Record<SectionKey, Visibility>;
  /** `section.field` → the field's own visibility, when it has one. */
  fieldVisibility: Record<string, Visibility>;
  /** `section.field` → text ('' for none). */
  text: Record<string, string>;
  links: Record<LinkSectionKey, LinkRow[]>;
  /** One per line. */
  facilityIds: string;
  substances: SubstanceRow[];
  materials: MaterialRow[];
}

type Sections = Record<string, Record<string, unknown> | undefined>;

const numberText = (n: unknown) => (typeof n === 'number' ? String(n) : '');

const sectionOf = (key: string) => key.split('.')[0] as SectionKey;

/** The visibility of field `key` (`section.field`): its own, else its section's. */
export function fieldVisibility(model: PassportModel, key: string): Visibility {
  return model.fieldVisibility[key] ?? model.visibility[sectionOf(key)];
}

/**
 * Gives field `key` the visibility `value`: its own when it differs from its
 * section's, else none (it follows the section again).
 */
export function withFieldVisibility(
  model: PassportModel,
  key: string,
  value: Visibility,
): PassportModel {
  const fieldVisibility = { ...model.fieldVisibility };
  if (value === model.visibility[sectionOf(key)]) delete fieldVisibility[key];
  else fieldVisibility[key] = value;
  return { ...model, fieldVisibility };
}

/** The visibility of an item of list section `section`: its own, else the section's. */
export function itemVisibility(
  model: PassportModel,
  section: SectionKey,
  item: OwnVisibility,
): Visibility {
  return item.visibility ?? model.visibility[section];
}

/** An item with the visibility `value`: its own when it differs from the section's. */
export function withItemVisibility<R extends OwnVisibility>(
  model: PassportModel,
  section: SectionKey,
  item: R,
  value: Visibility,
): R {
  const next = { ...item };
  if (value === model.visibility[section]) delete next.visibility;
  else next.visibility = value;
  return next;
}

/** The own visibility of an item, as sent: only when it differs from its section's. */
const ownVisibility = (section: Visibility, item: OwnVisibility) =>
  item.visibility && item.visibility !== section ? { visibility: item.visibility } : {};

export function toModel(data: PassportData): PassportModel {
  const sections = data as unknown as Sections;
  const visibility = Object.fromEntries(
    SECTION_KEYS.map((k) => [k, (sections[k]?.visibility as Visibility) ?? 'restricted']),
  ) as Record<SectionKey, Visibility>;
  const text = Object.fromEntries(
    TEXT_FIELDS.map(({ key }) => {
      const [section, field] = key.split('.') as [string, string];
      const value = sections[section]?.[field];
      return [key, typeof value === 'string' ? value : ''];
    }),
  );
  const fieldVisibility: Record<string, Visibility> = {};
  for (const section of FIELD_SECTIONS) {
    const own = (sections[section]?.field_visibility ?? {}) as Record<string, Visibility>;
    for (const [field, value] of Object.entries(own))
      fieldVisibility[`${section}.${field}`] = value;
  }
  const own = (item: { visibility?: Visibility }) =>
    item.visibility ? { visibility: item.visibility } : {};
  const link = (l: { title: string; url: string; visibility?: Visibility }) => ({
    title: l.title,
    url: l.url,
    ...own(l),
  });
  return {
    visibility,
    fieldVisibility,
    text,
    links: {
      compliance_documents: data.compliance_documents.items.map(link),
      user_manuals: data.user_manuals.items.map(link),
      safety_information: data.safety_information.items.map(link),
    },
    facilityIds: data.manufacturer.facility_ids.join('\n'),
    substances: data.substances_of_concern.items.map((s) => ({
      name: s.name,
      cas_number: s.cas_number ?? '',
      concentration_percent: numberText(s.concentration_percent),
      location: s.location ?? '',
      ...own(s),
    })),
    materials: data.materials.items.map((m) => ({
      name: m.name,
      share_percent: numberText(m.share_percent),
      recycled_percent: numberText(m.recycled_percent),
      ...own(m),
    })),
  };
}

/** Optional text: absent when blank. */
function opt(value: string, rule: Rule): string | undefined {
  if (rule === 'long') return value.trim() ? value : undefined;
  const trimmed = value.trim();
  return trimmed ? trimmed : undefined;
}

const optNumber = (value: string) => (value.trim() === '' ? undefined : Number(value));

export function toData(model: PassportModel): PassportData {
  const section = (key: FieldSectionKey) => {
    const own = Object.entries(model.fieldVisibility).filter(
      ([path, value]) => sectionOf(path) === key && value !== model.visibility[key],
    );
    const fields: Record<string, unknown> = {
      visibility: model.visibility[key],
      field_visibility: Object.fromEntries(
        own.map(([path, value]) => [path.slice(key.length + 1), value]),
      ),
    };
    for (const { key: path, rule } of TEXT_FIELDS) {
      const [s, f] = path.split('.') as [string, string];
      if (s !== key) continue;
      const value = opt(model.text[path] ?? '', rule);
      if (value !== undefined) fields[f] = value;
    }
    return fields;
  };
  const links = (key: LinkSectionKey) => ({
    visibility: model.visibility[key],
    items: model.links[key].map((l) => ({
      title: l.title.trim(),
      url: l.url.trim(),
      ...ownVisibility(model.visibility[key], l),
    })),
  });
  const data = {
    identification: section('identification'),
    compliance_documents: links('compliance_documents'),
    user_manuals: links('user_manuals'),
    safety_information: links('safety_information'),
    manufacturer: {
      ...section('manufacturer'),
      facility_ids: model.facilityIds
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    },
    importer: section('importer'),
    responsible_operator: section('responsible_operator'),
    substances_of_concern: {
      visibility: model.visibility.substances_of_concern,
      items: model.substances.map((s) => ({
        name: s.name.trim(),
        cas_number: opt(s.cas_number, 'short'),
        concentration_percent: optNumber(s.concentration_percent),
        location: opt(s.location, 'short'),
        ...ownVisibility(model.visibility.substances_of_concern, s),
      })),
    },
    materials: {
      visibility: model.visibility.materials,
      items: model.materials.map((m) => ({
        name: m.name.trim(),
        share_percent: optNumber(m.share_percent),
        recycled_percent: optNumber(m.recycled_percent),
        ...ownVisibility(model.visibility.materials, m),
      })),
    },
    repair: section('repair'),
    recycling: section('recycling'),
  };
  return JSON.parse(JSON.stringify(data)) as PassportData;
}

// --- the server's rules ------------------------------------------------------

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const DIRECTION = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const URL_RULE =
  /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?(?:[/?#][A-Za-z0-9._~:/?#[\]@!$&'()*+,;=%-]*)?$/;

export function shortTextError(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed || [...trimmed].length > 200) return 'Enter 1 to 200 characters.';
  if (CONTROL.test(trimmed) || DIRECTION.test(trimmed))
    return 'Remove control characters and text-direction marks.';
  return null;
}

export function longTextError(value: string): string | null {
  if ([...value].length > 5000) return 'At most 5000 characters.';
  if (CONTROL_BUT_BREAKS.test(value))
    return 'Remove control characters (line breaks and tabs are fine).';
  return null;
}

export function urlError(value: string): string | null {
  return value.length <= 2000 && URL_RULE.test(value)
    ? null
    : 'Enter an https:// link without spaces.';
}

export function eoriError(value: string): string | null {
  return /^[A-Z]{2}[0-9A-Z]{1,15}$/.test(value)
    ? null
    : 'An EORI number is a 2-letter country code then up to 15 letters or digits, in capitals.';
}

export function commodityError(value: string): string | null {
  return /^[0-9]{6}(?:[0-9]{2}){0,2}$/.test(value)
    ? null
    : 'Enter 6 digits (HS), 8 (CN) or 10 (TARIC), without dots or spaces.';
}

/** The CAS check digit of the digits before it (weights 1, 2, 3, … from the right). */
export function casCheckDigit(digits: string): number {
  return [...digits].reverse().reduce((sum, d, i) => sum + (i + 1) * Number(d), 0) % 10;
}

export function casError(value: string): string | null {
  const m = /^([1-9][0-9]{1,6})-([0-9]{2})-([0-9])$/.exec(value);
  if (!m) return 'Enter a CAS number such as 7732-18-5.';
  if (casCheckDigit(`${m[1]}${m[2]}`) !== Number(m[3]))
    return 'The check digit (the last digit) is wrong: check the CAS number.';
  return null;
}

export function percentError(value: string): string | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= 100 ? null : 'Enter a percentage from 0 to 100.';
}

const RULES: Record<Rule, (value: string) => string | null> = {
  short: shortTextError,
  long: longTextError,
  eori: eoriError,
  commodity: commodityError,
};

export type PassportErrors = Record<string, string>;

/** Every rule of the server, keyed like the editor's fields (`materials.2.share_percent`). */
export function checkPassport(model: PassportModel): PassportErrors {
  const errors: PassportErrors = {};
  const check = (key: string, error: string | null) => {
    if (error) errors[key] = error;
  };
  for (const { key, rule } of TEXT_FIELDS) {
    const value = model.text[key] ?? '';
    if (value.trim() !== '') check(key, RULES[rule](value));
  }
  for (const section of LINK_SECTIONS) {
    if (model.links[section].length > 20) errors[section] = 'At most 20 documents.';
    model.links[section].forEach((link, i) => {
      check(`${section}.${i}.title`, shortTextError(link.title));
      check(`${section}.${i}.url`, urlError(link.url.trim()));
    });
  }
  const facilities = model.facilityIds
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (facilities.length > 20) errors['manufacturer.facility_ids'] = 'At most 20 identifiers.';
  else {
    const bad = facilities.map(shortTextError).find(Boolean);
    if (bad) errors['manufacturer.facility_ids'] = bad;
  }
  if (model.substances.length > 100) errors.substances_of_concern = 'At most 100 substances.';
  model.substances.forEach((s, i) => {
    check(`substances_of_concern.${i}.name`, shortTextError(s.name));
    if (s.cas_number.trim())
      check(`substances_of_concern.${i}.cas_number`, casError(s.cas_number.trim()));
    check(
      `substances_of_concern.${i}.concentration_percent`,
      percentError(s.concentration_percent),
    );
    if (s.location.trim()) check(`substances_of_concern.${i}.location`, shortTextError(s.location));
  });
  if (model.materials.length > 50) errors.materials = 'At most 50 materials.';
  model.materials.forEach((m, i) => {
    check(`materials.${i}.name`, shortTextError(m.name));
    check(`materials.${i}.share_percent`, percentError(m.share_percent));
    check(`materials.${i}.recycled_percent`, percentError(m.recycled_percent));
  });
  const total = model.materials.reduce(
    (sum, m) =>
      sum +
      (percentError(m.share_percent) || !m.share_percent.trim() ? 0 : Number(m.share_percent)),
    0,
  );
  if (total > 100 + 1e-6) errors.materials = 'The materials’ shares add up to more than 100%.';
  return errors;
}

/**
 * Every field and entry of `section` public: the section's visibility
 * becomes public and its fields and entries follow it again.
 */
export function withSectionPublic(model: PassportModel, section: SectionKey): PassportModel {
  const fieldVisibility = Object.fromEntries(
    Object.entries(model.fieldVisibility).filter(([key]) => sectionOf(key) !== section),
  );
  const follow = <R extends OwnVisibility>(items: R[]): R[] =>
    items.map(({ visibility: _own, ...rest }) => rest as R);
  const next: PassportModel = {
    ...model,
    visibility: { ...model.visibility, [section]: 'public' },
    fieldVisibility,
  };
  if ((LINK_SECTIONS as readonly string[]).includes(section)) {
    const key = section as LinkSectionKey;
    next.links = { ...model.links, [key]: follow(model.links[key]) };
  }
  if (section === 'substances_of_concern') next.substances = follow(model.substances);
  if (section === 'materials') next.materials = follow(model.materials);
  return next;
}

/** Whether every field and entry of `section` is public already. */
export function sectionAllPublic(model: PassportModel, section: SectionKey): boolean {
  return JSON.stringify(withSectionPublic(model, section)) === JSON.stringify(model);
}

/**
 * What people read for a field the server counts as missing
 * (`identification.unique_product_id` → "Identification: Unique product
 * identifier"; a list section → its title).
 */
export function missingFieldLabel(key: string): string {
  const section = SECTION_TITLES[sectionOf(key) as SectionKey] as string | undefined;
  if (!section) return key;
  if (!key.includes('.')) return section;
  if (key === FACILITY_IDS) return `${section}: Facility identifiers`;
  const field = TEXT_FIELDS.find((f) => f.key === key);
  return field ? `${section}: ${field.label}` : section;
}

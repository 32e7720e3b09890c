import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { FormActions } from '@/components/ui/form-actions';
import { TextAreaField, TextField } from '@/components/ui/form-field';
import { savePassport, type Passport } from '../api/passports-api';
import {
  FACILITY_IDS,
  LINK_SECTIONS,
  SECTION_TITLES,
  TEXT_FIELDS,
  checkPassport,
  fieldVisibility,
  itemVisibility,
  sectionAllPublic,
  toData,
  toModel,
  withFieldVisibility,
  withItemVisibility,
  withSectionPublic,
  type PassportErrors,
  type PassportModel,
  type SectionKey,
  type Visibility,
} from '../passport-form';

/**
 * A public/restricted switch. Its visible label is `text`; screen readers
 * also hear `of` (which section, field or item it is about).
 */
function VisibilitySwitch({
  text,
  of,
  value,
  onChange,
}: {
  text: string;
  of: string;
  value: Visibility;
  onChange: (value: Visibility) => void;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        checked={value === 'public'}
        onChange={(e) => onChange(e.target.checked ? 'public' : 'restricted')}
      />{' '}
      {text} <span className="visually-hidden">({of})</span>
    </label>
  );
}

/** The passport's sections as a form; saving sends the whole document as a new version. */
export function PassportEditor({
  passport,
  productId,
  lot,
  onSaved,
}: {
  passport: Passport;
  productId: string;
  lot: string | null;
  onSaved: (saved: Passport) => void;
}) {
  const [model, setModel] = useState<PassportModel>(() => toModel(passport.data));
  const [errors, setErrors] = useState<PassportErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A lot without a passport of its own shows the product's: saving starts the lot's at 1.
  const nextVersion = lot !== null && passport.lot === undefined ? 1 : passport.version + 1;

  const change = (edit: (m: PassportModel) => PassportModel) => setModel((m) => edit(m));
  const setText = (key: string, value: string) =>
    change((m) => ({ ...m, text: { ...m.text, [key]: value } }));
  const setVisibility = (section: SectionKey, value: Visibility) =>
    change((m) => ({ ...m, visibility: { ...m.visibility, [section]: value } }));
  /** A field's own switch: shows its visibility (its own, else its section's). */
  const fieldSwitch = (key: string, label: string) => (
    <VisibilitySwitch
      text="Public"
      of={`${SECTION_TITLES[key.split('.')[0] as SectionKey]}: ${label}`}
      value={fieldVisibility(model, key)}
      onChange={(v) => change((m) => withFieldVisibility(m, key, v))}
    />
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = checkPassport(model);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure('Some fields need a change before the passport can be saved.');
      return;
    }
    setBusy(true);
    setFailure(null);
    const result = await savePassport(productId, lot, toData(model));
    setBusy(false);
    if (result.ok) {
      toast.success(`Version ${result.data.version} published.`);
      onSaved(result.data);
    } else {
      setFailure(result.message);
    }
  }

  const section = (key: SectionKey, children: ReactNode) => (
    <CardSection title={SECTION_TITLES[key]} key={key}>
      <div className="passport-section__visibility">
        <VisibilitySwitch
          text="Public by default"
          of={SECTION_TITLES[key]}
          value={model.visibility[key]}
          onChange={(v) => setVisibility(key, v)}
        />
        <Button
          variant="secondary"
          aria-label={`Make all public (${SECTION_TITLES[key]})`}
          disabled={sectionAllPublic(model, key)}
          onClick={() => change((m) => withSectionPublic(m, key))}
        >
          Make all public
        </Button>
      </div>
      {children}
    </CardSection>
  );

  const textFields = (key: SectionKey) =>
    TEXT_FIELDS.filter((f) => f.key.startsWith(`${key}.`)).map((f) => (
      <Fragment key={f.key}>
        {f.rule === 'long' ? (
          <TextAreaField
            label={f.label}
            value={model.text[f.key] ?? ''}
            error={errors[f.key]}
            rows={4}
            onChange={(e) => setText(f.key, e.target.value)}
          />
        ) : (
          <TextField
            label={f.label}
            hint={f.hint}
            value={model.text[f.key] ?? ''}
            error={errors[f.key]}
            onChange={(e) => setText(f.key, e.target.value)}
          />
        )}
        {fieldSwitch(f.key, f.label)}
      </Fragment>
    ));

  function rows<R extends { visibility?: Visibility }>(
    name: SectionKey,
    list: R[],
    fields: readonly { key: keyof R & string; label: string }[],
    blank: R,
    update: (next: R[]) => void,
  ) {
    return (
      <div className="passport-rows">
        {errors[name] ? <p className="field__error">{errors[name]}</p> : null}
        {list.map((row, i) => (
          <fieldset key={i} className="passport-row">
            <legend className="visually-hidden">
              {SECTION_TITLES[name]} {i + 1}
            </legend>
            {fields.map((f) => (
              <TextField
                key={f.key}
                label={f.label}
                value={String(row[f.key] ?? '')}
                error={errors[`${name}.${i}.${f.key}`]}
                onChange={(e) =>
                  update(list.map((r, j) => (j === i ? { ...r, [f.key]: e.target.value } : r)))
                }
              />
            ))}
            <VisibilitySwitch
              text="Public"
              of={`${SECTION_TITLES[name]} ${i + 1}`}
              value={itemVisibility(model, name, row)}
              onChange={(v) =>
                update(list.map((r, j) => (j === i ? withItemVisibility(model, name, r, v) : r)))
              }
            />
            <Button variant="ghost" onClick={() => update(list.filter((_, j) => j !== i))}>
              Remove
            </Button>
          </fieldset>
        ))}
        <Button variant="secondary" onClick={() => update([...list, { ...blank }])}>
          Add
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Passport" className="passport-form">
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      <p className="muted" data-testid="public-meaning">
        <strong>Public</strong> means anyone who scans the product sees it on its scan page;
        everything else stays restricted to your organisation. A section’s “Public by default”
        switch sets its fields and entries, each one’s own “Public” switch can differ from it, and
        “Make all public” makes the whole section public.
      </p>
      {section('identification', textFields('identification'))}
      {LINK_SECTIONS.map((key) =>
        section(
          key,
          rows(
            key,
            model.links[key],
            [
              { key: 'title', label: 'Title' },
              { key: 'url', label: 'Link (https://)' },
            ],
            { title: '', url: '' },
            (next) => change((m) => ({ ...m, links: { ...m.links, [key]: next } })),
          ),
        ),
      )}
      {section(
        'manufacturer',
        <>
          {textFields('manufacturer')}
          <TextAreaField
            label="Facility identifiers (one per line)"
            value={model.facilityIds}
            error={errors[FACILITY_IDS]}
            rows={3}
            onChange={(e) => change((m) => ({ ...m, facilityIds: e.target.value }))}
          />
          {fieldSwitch(FACILITY_IDS, 'Facility identifiers')}
        </>,
      )}
      {section('importer', textFields('importer'))}
      {section('responsible_operator', textFields('responsible_operator'))}
      {section(
        'substances_of_concern',
        rows(
          'substances_of_concern',
          model.substances,
          [
            { key: 'name', label: 'Substance' },
            { key: 'cas_number', label: 'CAS number' },
            { key: 'concentration_percent', label: 'Concentration (%)' },
            { key: 'location', label: 'Where in the product' },
          ],
          { name: '', cas_number: '', concentration_percent: '', location: '' },
          (next) => change((m) => ({ ...m, substances: next })),
        ),
      )}
      {section(
        'materials',
        rows(
          'materials',
          model.materials,
          [
            { key: 'name', label: 'Material' },
            { key: 'share_percent', label: 'Share (%)' },
            { key: 'recycled_percent', label: 'Recycled (%)' },
          ],
          { name: '', share_percent: '', recycled_percent: '' },
          (next) => change((m) => ({ ...m, materials: next })),
        ),
      )}
      {section('repair', textFields('repair'))}
      {section('recycling', textFields('recycling'))}
      <FormActions busy={busy} submitLabel={`Publish version ${nextVersion}`} />
    </form>
  );
}

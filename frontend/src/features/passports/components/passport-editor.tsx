import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { FormActions } from '@/components/ui/form-actions';
import { TextAreaField, TextField } from '@/components/ui/form-field';
import { savePassport, type Passport } from '../api/passports-api';
import {
  LINK_SECTIONS,
  SECTION_TITLES,
  TEXT_FIELDS,
  checkPassport,
  toData,
  toModel,
  type PassportErrors,
  type PassportModel,
  type SectionKey,
} from '../passport-form';

function VisibilitySwitch({
  section,
  value,
  onChange,
}: {
  section: SectionKey;
  value: 'public' | 'restricted';
  onChange: (value: 'public' | 'restricted') => void;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        checked={value === 'public'}
        onChange={(e) => onChange(e.target.checked ? 'public' : 'restricted')}
      />{' '}
      Public ({SECTION_TITLES[section]})
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

  const change = (edit: (m: PassportModel) => PassportModel) => setModel((m) => edit(m));
  const setText = (key: string, value: string) =>
    change((m) => ({ ...m, text: { ...m.text, [key]: value } }));
  const setVisibility = (section: SectionKey, value: 'public' | 'restricted') =>
    change((m) => ({ ...m, visibility: { ...m.visibility, [section]: value } }));

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
      toast.success(`Passport saved as version ${result.data.version}.`);
      onSaved(result.data);
    } else {
      setFailure(result.message);
    }
  }

  const section = (key: SectionKey, children: ReactNode) => (
    <CardSection title={SECTION_TITLES[key]} key={key}>
      <VisibilitySwitch
        section={key}
        value={model.visibility[key]}
        onChange={(v) => setVisibility(key, v)}
      />
      {children}
    </CardSection>
  );

  const textFields = (key: SectionKey) =>
    TEXT_FIELDS.filter((f) => f.key.startsWith(`${key}.`)).map((f) =>
      f.rule === 'long' ? (
        <TextAreaField
          key={f.key}
          label={f.label}
          value={model.text[f.key] ?? ''}
          error={errors[f.key]}
          rows={4}
          onChange={(e) => setText(f.key, e.target.value)}
        />
      ) : (
        <TextField
          key={f.key}
          label={f.label}
          hint={f.hint}
          value={model.text[f.key] ?? ''}
          error={errors[f.key]}
          onChange={(e) => setText(f.key, e.target.value)}
        />
      ),
    );

  function rows<R>(
    name: string,
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
              {name} {i + 1}
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
            error={errors['manufacturer.facility_ids']}
            rows={3}
            onChange={(e) => change((m) => ({ ...m, facilityIds: e.target.value }))}
          />
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
      <FormActions busy={busy} submitLabel="Save as a new version" />
    </form>
  );
}

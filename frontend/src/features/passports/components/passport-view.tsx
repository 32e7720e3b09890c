import type { ReactNode } from 'react';
import type { Passport } from '../api/passports-api';
import {
  LINK_SECTIONS,
  SECTION_TITLES,
  TEXT_FIELDS,
  toModel,
  type SectionKey,
} from '../passport-form';

/** A version of a passport, read-only: every section with its visibility. */
export function PassportView({ passport }: { passport: Passport }) {
  const model = toModel(passport.data);
  const block = (key: SectionKey, body: ReactNode) => (
    <div key={key} className="passport-view__section">
      <h3>
        {SECTION_TITLES[key]}{' '}
        <span className={`badge ${model.visibility[key] === 'public' ? 'badge--success' : ''}`}>
          {model.visibility[key] === 'public' ? 'Public' : 'Restricted'}
        </span>
      </h3>
      {body}
    </div>
  );
  const dl = (key: SectionKey) => {
    const filled = TEXT_FIELDS.filter((f) => f.key.startsWith(`${key}.`) && model.text[f.key]);
    return filled.length === 0 ? (
      <p className="muted">Empty.</p>
    ) : (
      <dl className="dl">
        {filled.map((f) => [
          <dt key={`${f.key}-t`}>{f.label}</dt>,
          <dd key={`${f.key}-d`} className="pre-line">
            {model.text[f.key]}
          </dd>,
        ])}
      </dl>
    );
  };
  const list = (items: string[]) =>
    items.length === 0 ? (
      <p className="muted">Empty.</p>
    ) : (
      <ul>
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
    );
  return (
    <div className="passport-view">
      {block('identification', dl('identification'))}
      {LINK_SECTIONS.map((key) =>
        block(key, list(model.links[key].map((l) => `${l.title}: ${l.url}`))),
      )}
      {block(
        'manufacturer',
        <>
          {dl('manufacturer')}
          {passport.data.manufacturer.facility_ids.length > 0 ? (
            <p>Facilities: {passport.data.manufacturer.facility_ids.join(', ')}</p>
          ) : null}
        </>,
      )}
      {block('importer', dl('importer'))}
      {block('responsible_operator', dl('responsible_operator'))}
      {block(
        'substances_of_concern',
        list(
          model.substances.map((s) =>
            [
              s.name,
              s.cas_number && `CAS ${s.cas_number}`,
              s.concentration_percent && `${s.concentration_percent}%`,
              s.location,
            ]
              .filter(Boolean)
              .join(', '),
          ),
        ),
      )}
      {block(
        'materials',
        list(
          model.materials.map((m) =>
            [
              m.name,
              m.share_percent && `${m.share_percent}%`,
              m.recycled_percent && `${m.recycled_percent}% recycled`,
            ]
              .filter(Boolean)
              .join(', '),
          ),
        ),
      )}
      {block('repair', dl('repair'))}
      {block('recycling', dl('recycling'))}
    </div>
  );
}

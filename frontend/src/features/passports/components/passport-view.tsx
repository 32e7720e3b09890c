import type { ReactNode } from 'react';
import type { Passport } from '../api/passports-api';
import {
  FACILITY_IDS,
  LINK_SECTIONS,
  SECTION_TITLES,
  TEXT_FIELDS,
  fieldVisibility,
  itemVisibility,
  toModel,
  type PassportModel,
  type SectionKey,
  type Visibility,
} from '../passport-form';

function VisibilityBadge({ value }: { value: Visibility }) {
  return (
    <span className={`badge ${value === 'public' ? 'badge--success' : ''}`}>
      {value === 'public' ? 'Public' : 'Restricted'}
    </span>
  );
}

/** A badge when a field's or item's visibility is its own (not its section's). */
function own(model: PassportModel, section: SectionKey, value: Visibility) {
  return value === model.visibility[section] ? null : (
    <>
      {' '}
      <VisibilityBadge value={value} />
    </>
  );
}

/**
 * A version of a passport, read-only: every section with its visibility, and
 * the fields and entries whose visibility is their own marked with it.
 */
export function PassportView({ passport }: { passport: Passport }) {
  const model = toModel(passport.data);
  const block = (key: SectionKey, body: ReactNode) => (
    <div key={key} className="passport-view__section">
      <h3>
        {SECTION_TITLES[key]} <VisibilityBadge value={model.visibility[key]} />
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
            {own(model, key, fieldVisibility(model, f.key))}
          </dd>,
        ])}
      </dl>
    );
  };
  const list = (key: SectionKey, items: { text: string; visibility?: Visibility }[]) =>
    items.length === 0 ? (
      <p className="muted">Empty.</p>
    ) : (
      <ul>
        {items.map((item, i) => (
          <li key={i}>
            {item.text}
            {own(model, key, itemVisibility(model, key, item))}
          </li>
        ))}
      </ul>
    );
  return (
    <div className="passport-view">
      {block('identification', dl('identification'))}
      {LINK_SECTIONS.map((key) =>
        block(
          key,
          list(
            key,
            model.links[key].map((l) => ({
              text: `${l.title}: ${l.url}`,
              visibility: l.visibility,
            })),
          ),
        ),
      )}
      {block(
        'manufacturer',
        <>
          {dl('manufacturer')}
          {passport.data.manufacturer.facility_ids.length > 0 ? (
            <p>
              Facilities: {passport.data.manufacturer.facility_ids.join(', ')}
              {own(model, 'manufacturer', fieldVisibility(model, FACILITY_IDS))}
            </p>
          ) : null}
        </>,
      )}
      {block('importer', dl('importer'))}
      {block('responsible_operator', dl('responsible_operator'))}
      {block(
        'substances_of_concern',
        list(
          'substances_of_concern',
          model.substances.map((s) => ({
            text: [
              s.name,
              s.cas_number && `CAS ${s.cas_number}`,
              s.concentration_percent && `${s.concentration_percent}%`,
              s.location,
            ]
              .filter(Boolean)
              .join(', '),
            visibility: s.visibility,
          })),
        ),
      )}
      {block(
        'materials',
        list(
          'materials',
          model.materials.map((m) => ({
            text: [
              m.name,
              m.share_percent && `${m.share_percent}%`,
              m.recycled_percent && `${m.recycled_percent}% recycled`,
            ]
              .filter(Boolean)
              .join(', '),
            visibility: m.visibility,
          })),
        ),
      )}
      {block('repair', dl('repair'))}
      {block('recycling', dl('recycling'))}
    </div>
  );
}

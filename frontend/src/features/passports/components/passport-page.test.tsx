import { screen, waitFor, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import type { Passport, PassportData, PassportList } from '../api/passports-api';
import { PassportPage } from './passport-page';
import { PassportsPage } from './passports-page';

const ID = '11111111-1111-4111-8111-111111111111';

const empty: PassportData = {
  identification: { visibility: 'restricted', field_visibility: {} },
  compliance_documents: { visibility: 'restricted', items: [] },
  user_manuals: { visibility: 'restricted', items: [] },
  safety_information: { visibility: 'restricted', items: [] },
  manufacturer: { visibility: 'restricted', field_visibility: {}, facility_ids: [] },
  importer: { visibility: 'restricted', field_visibility: {} },
  responsible_operator: { visibility: 'restricted', field_visibility: {} },
  substances_of_concern: { visibility: 'restricted', items: [] },
  materials: { visibility: 'restricted', items: [] },
  repair: { visibility: 'restricted', field_visibility: {} },
  recycling: { visibility: 'restricted', field_visibility: {} },
};

function passport(over: Partial<Passport> = {}): Passport {
  return {
    product_id: ID,
    product_name: 'Trail shoe',
    gtin: '09506000134352',
    version: 2,
    completeness: 5,
    missing: ['identification.commodity_code'],
    saved_at: '2026-11-20T10:00:00Z',
    data: {
      ...empty,
      importer: { visibility: 'public', field_visibility: {}, name: '<b>Importer</b>' },
    },
    ...over,
  };
}

const versions = {
  product_id: ID,
  versions: [
    { version: 2, completeness: 5, saved_at: '2026-11-20T10:00:00Z', saved_by: ID },
    { version: 1, completeness: 0, saved_at: '2026-11-19T10:00:00Z', saved_by: ID },
  ],
};

function setup() {
  signInAs(adminSession);
  const api = mockApi({
    [`GET /api/passports/${ID}`]: () => json(200, passport()),
    [`GET /api/passports/${ID}/versions`]: () => json(200, versions),
    [`GET /api/passports/${ID}/versions/1`]: () =>
      json(
        200,
        passport({
          version: 1,
          data: {
            ...empty,
            repair: { visibility: 'public', field_visibility: {}, instructions: 'Old way' },
            importer: {
              visibility: 'restricted',
              field_visibility: { eori: 'public' },
              eori: 'DE12',
            },
          },
        }),
      ),
    [`PUT /api/passports/${ID}`]: (call) =>
      json(200, passport({ version: 3, data: call.body as PassportData })),
  });
  const view = renderPage(<PassportPage productId={ID} />, { route: `/DPP/${ID}` });
  return { ...api, ...view };
}

describe('PassportPage', () => {
  it('checks the server’s rules before sending, then saves the whole passport', async () => {
    const { user, calls } = setup();
    const form = await screen.findByRole('form', { name: 'Passport' });
    expect(screen.getByRole('status')).toHaveTextContent('Current version 2');
    expect(within(form).getByDisplayValue('<b>Importer</b>')).toBeInTheDocument();

    const eori = () => within(form).getByRole('textbox', { name: /EORI number/ });
    await user.type(eori(), 'de12');
    await user.click(within(form).getByRole('button', { name: 'Publish version 3' }));
    expect(await within(form).findByText(/2-letter country code/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(eori());
    await user.type(eori(), 'DE12');
    const materials = within(screen.getByRole('region', { name: 'Materials' }));
    await user.click(materials.getByRole('button', { name: 'Add' }));
    await user.type(materials.getByLabelText('Material'), 'Leather');
    await user.type(materials.getByLabelText('Share (%)'), '60');
    await user.click(materials.getByRole('checkbox', { name: 'Public by default (Materials)' }));
    await user.click(within(form).getByRole('button', { name: 'Publish version 3' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const sent = calls.find((c) => c.method === 'PUT')!.body as PassportData;
    expect(sent.importer).toEqual({
      visibility: 'public',
      field_visibility: {},
      name: '<b>Importer</b>',
      eori: 'DE12',
    });
    expect(sent.materials).toEqual({
      visibility: 'public',
      items: [{ name: 'Leather', share_percent: 60 }],
    });
  });

  it('names the missing fields by their labels and turns a full bar green', async () => {
    setup();
    await screen.findByRole('form', { name: 'Passport' });
    expect(
      screen.getByText('Still missing: Identification: Commodity code (HS/CN).'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/identification\.commodity_code/)).not.toBeInTheDocument();
    // What "public" means is said once, at the top of the editor.
    expect(screen.getAllByText(/means anyone who scans the product/)).toHaveLength(1);
  });

  it('makes a whole section public in one go', async () => {
    const { user, calls } = setup();
    const form = await screen.findByRole('form', { name: 'Passport' });
    const importer = within(screen.getByRole('region', { name: 'Importer' }));
    // Public already: nothing to do.
    expect(importer.getByRole('button', { name: 'Make all public (Importer)' })).toBeDisabled();
    await user.click(importer.getByRole('checkbox', { name: 'Public (Importer: Contact)' }));
    expect(
      importer.getByRole('checkbox', { name: 'Public (Importer: Contact)' }),
    ).not.toBeChecked();
    const repair = within(screen.getByRole('region', { name: 'Repair' }));
    await user.click(repair.getByRole('button', { name: 'Make all public (Repair)' }));
    expect(repair.getByRole('checkbox', { name: 'Public by default (Repair)' })).toBeChecked();
    await user.click(importer.getByRole('button', { name: 'Make all public (Importer)' }));
    expect(importer.getByRole('checkbox', { name: 'Public (Importer: Contact)' })).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Publish version 3' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const sent = calls.find((c) => c.method === 'PUT')!.body as PassportData;
    expect(sent.importer.visibility).toBe('public');
    expect(sent.importer.field_visibility).toEqual({});
    expect(sent.repair.visibility).toBe('public');
    expect(await screen.findByText('Version 3 published.')).toBeInTheDocument();
  });

  it('sets each field and entry public or restricted on its own', async () => {
    const { user, calls } = setup();
    const form = await screen.findByRole('form', { name: 'Passport' });
    const importer = within(within(form).getByRole('region', { name: 'Importer' }));
    const sectionSwitch = importer.getByRole('checkbox', { name: 'Public by default (Importer)' });
    const contact = importer.getByRole('checkbox', { name: 'Public (Importer: Contact)' });
    // Every field shows its section's visibility until it has its own.
    expect(sectionSwitch).toBeChecked();
    expect(importer.getByRole('checkbox', { name: 'Public (Importer: Name)' })).toBeChecked();
    expect(contact).toBeChecked();
    await user.click(contact);
    expect(contact).not.toBeChecked();
    // The section goes restricted: its fields follow, but the one with its
    // own visibility stays as it is; a field may then be public on its own.
    await user.click(sectionSwitch);
    expect(importer.getByRole('checkbox', { name: 'Public (Importer: Name)' })).not.toBeChecked();
    await user.click(importer.getByRole('checkbox', { name: 'Public (Importer: EORI number)' }));

    const manufacturer = within(within(form).getByRole('region', { name: 'Manufacturer' }));
    await user.click(
      manufacturer.getByRole('checkbox', { name: 'Public by default (Manufacturer)' }),
    );
    await user.click(
      manufacturer.getByRole('checkbox', { name: 'Public (Manufacturer: Facility identifiers)' }),
    );

    const manuals = within(within(form).getByRole('region', { name: 'User manuals' }));
    await user.click(manuals.getByRole('button', { name: 'Add' }));
    await user.type(manuals.getByRole('textbox', { name: 'Title' }), 'Manual');
    await user.type(
      manuals.getByRole('textbox', { name: 'Link (https://)' }),
      'https://example.com/m',
    );
    const entry = manuals.getByRole('checkbox', { name: 'Public (User manuals 1)' });
    expect(entry).not.toBeChecked();
    await user.click(entry);
    expect(entry).toBeChecked();

    await user.click(within(form).getByRole('button', { name: 'Publish version 3' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const sent = calls.find((c) => c.method === 'PUT')!.body as PassportData;
    expect(sent.importer).toEqual({
      visibility: 'restricted',
      field_visibility: { eori: 'public' },
      name: '<b>Importer</b>',
    });
    expect(sent.manufacturer).toEqual({
      visibility: 'public',
      field_visibility: { facility_ids: 'restricted' },
      facility_ids: [],
    });
    expect(sent.user_manuals).toEqual({
      visibility: 'restricted',
      items: [{ title: 'Manual', url: 'https://example.com/m', visibility: 'public' }],
    });
  });

  it('shows an older version read-only', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'View version 1' }));
    const old = await screen.findByRole('region', { name: 'Version 1 (read-only)' });
    expect(await within(old).findByText('Old way')).toBeInTheDocument();
    // A field whose visibility is its own is marked with it.
    const eori = within(old).getByText('DE12');
    expect(within(eori).getByText('Public')).toBeInTheDocument();
    expect(within(old).queryByRole('textbox')).toBeNull();
  });
});

describe('PassportsPage', () => {
  it('lists products with their completeness and lot passports', async () => {
    signInAs(adminSession);
    const list: PassportList = {
      counted_fields: Array.from({ length: 17 }, (_, i) => `f${i}`),
      products: [
        {
          product_id: ID,
          product_name: 'Trail shoe',
          skuid: 'SHOE',
          gtin: '09506000134352',
          version: 2,
          completeness: 100,
          updated_at: '2026-11-20T10:00:00Z',
          lots: [{ lot: 'L-1', version: 1, completeness: 40, updated_at: '2026-11-20T10:00:00Z' }],
        },
      ],
    };
    mockApi({ 'GET /api/passports': () => json(200, list) });
    renderPage(<PassportsPage />, { route: '/DPP' });
    expect(
      await screen.findByRole('meter', { name: 'Completeness of Trail shoe' }),
    ).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('status')).toHaveTextContent(
      '1 of 1 products have a complete passport',
    );
    expect(screen.getByRole('link', { name: 'L-1 (40%)' })).toHaveAttribute(
      'href',
      `/DPP/${ID}?lot=L-1`,
    );
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { Route, Routes, useLocation } from 'react-router';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { product } from '../test-data';
import { AddProductPage, EditProductPage } from './product-form-pages';

const saved = product({
  id: 'p-9',
  product_name: 'Oat milk',
  skuid: 'OAT-1',
  gtin: '04006381333931',
  category: 'Drinks',
});

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

type Handlers = Parameters<typeof mockApi>[0];

const companies = [
  { id: 'c-1', cin: 'L24230MH1995PLC093214', name: 'A Laboratories Ltd' },
  { id: 'c-2', cin: 'U24239GJ2008PTC052871', name: 'A Formulations Pvt Ltd' },
];

function renderAdd(handlers: Handlers = {}, withCompanies?: typeof companies) {
  signInAs(adminSession);
  const api = mockApi(handlers);
  const view = renderPage(
    <>
      <Routes>
        <Route
          path="/products/Add_product"
          element={<AddProductPage companies={withCompanies} />}
        />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { route: '/products/Add_product' },
  );
  return { ...api, ...view };
}

const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'GET');

async function fill(
  user: ReturnType<typeof renderAdd>['user'],
  values: { name?: string; skuid?: string; gtin?: string; category?: string },
) {
  const form = within(screen.getByRole('form', { name: 'Add product' }));
  if (values.name) await user.type(form.getByLabelText('Name'), values.name);
  if (values.skuid) await user.type(form.getByLabelText('SKU id'), values.skuid);
  if (values.gtin) await user.type(form.getByLabelText('GTIN'), values.gtin);
  if (values.category) await user.type(form.getByLabelText('Category'), values.category);
}

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Add product', () => {
  it('adds a product, says so and opens it', async () => {
    const { user, calls } = renderAdd({ 'POST /api/products': () => json(201, saved) });
    await fill(user, { name: ' Oat milk ', skuid: 'OAT-1', gtin: '4006381333931' });
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(await screen.findByText('Product added.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '4006381333931',
    });
    expect(posts(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/products/p-9'));
  });

  it('has no company select for an organisation without companies', () => {
    renderAdd();
    expect(screen.queryByLabelText('Company')).not.toBeInTheDocument();
  });

  it('links the product to a company chosen by CIN, when the organisation has companies', async () => {
    const { user, calls } = renderAdd(
      { 'POST /api/products': () => json(201, { ...saved, company_id: 'c-2' }) },
      companies,
    );
    const select = screen.getByRole('combobox', { name: 'Company' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'No company',
      'L24230MH1995PLC093214 — A Laboratories Ltd',
      'U24239GJ2008PTC052871 — A Formulations Pvt Ltd',
    ]);
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333931' });
    await user.selectOptions(select, 'c-2');
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(await screen.findByText('Product added.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '4006381333931',
      company_id: 'c-2',
    });
  });

  it('checks the fields before sending: a wrong GTIN check digit sends nothing', async () => {
    const { user, calls } = renderAdd();
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(screen.getByText('Enter the product’s name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the SKU id.')).toBeInTheDocument();
    expect(screen.getByText('Enter the GTIN.')).toBeInTheDocument();
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333932' });
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(screen.getByLabelText('GTIN')).toHaveAccessibleDescription(
      /The check digit \(the last digit\) is wrong/,
    );
    expect(posts(calls)).toHaveLength(0);
  });

  it('shows the server’s refusal at its field (a taken SKU id)', async () => {
    const { user } = renderAdd({
      'POST /api/products': () =>
        json(409, { error: 'Another product already has this skuid.', code: 'conflict' }),
    });
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333931' });
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    await waitFor(() =>
      expect(screen.getByLabelText('SKU id')).toHaveAccessibleDescription(
        /Another product already has this skuid\./,
      ),
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/products/Add_product');
    // Changing the field clears the server's message.
    await user.type(screen.getByLabelText('SKU id'), '2');
    expect(screen.queryByText('Another product already has this skuid.')).not.toBeInTheDocument();
  });

  it('shows the plan’s limit above the form', async () => {
    const message =
      "You have reached your plan's limit of products. Archive a product or ask for a higher limit.";
    const { user } = renderAdd({
      'POST /api/products': () => json(403, { error: message, code: 'product_limit' }),
    });
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333931' });
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('Edit product', () => {
  function renderEdit(handlers: Handlers, session: SessionInfo = adminSession) {
    signInAs(session);
    const api = mockApi({ 'GET /api/products/p-9': () => json(200, saved), ...handlers });
    const view = renderPage(
      <>
        <Routes>
          <Route path="/products/Edit_product/:key" element={<EditProductPage id="p-9" />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </>,
      { route: '/products/Edit_product/p-9' },
    );
    return { ...api, ...view };
  }

  it('starts from the stored product and sends only what changed', async () => {
    const { user, calls } = renderEdit({
      'PATCH /api/products/p-9': () => json(200, { ...saved, product_name: 'Oat drink' }),
    });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Oat milk');
    expect(screen.getByLabelText('GTIN')).toHaveValue('04006381333931');
    await user.clear(name);
    await user.type(name, 'Oat drink');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Product updated.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({ product_name: 'Oat drink' });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/products/p-9'));
  });

  it('changes the unit and the inspection flag', async () => {
    const { user, calls } = renderEdit({
      'PATCH /api/products/p-9': () =>
        json(200, { ...saved, unit: 'l', requires_inspection: true }),
    });
    const unit = await screen.findByLabelText('Unit of measure');
    expect(unit).toHaveValue('each');
    const inspection = screen.getByRole('checkbox', { name: 'Requires inspection' });
    expect(inspection).not.toBeChecked();
    await user.clear(unit);
    await user.type(unit, 'l');
    await user.click(inspection);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Product updated.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({ unit: 'l', requires_inspection: true });
  });

  it('refuses a unit the server would refuse, sending nothing', async () => {
    const { user, calls } = renderEdit({});
    const unit = await screen.findByLabelText('Unit of measure');
    await user.clear(unit);
    await user.type(unit, 'Litres');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText(
        'Use up to 16 lower-case letters, digits or _, starting with a letter (each, kg, ml).',
      ),
    ).toBeInTheDocument();
    expect(posts(calls)).toEqual([]);
  });

  it('sends a worker to /unauthorized', async () => {
    renderEdit(
      {},
      {
        ...adminSession,
        user: { ...adminSession.user, role: 'worker' },
      },
    );
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/unauthorized'));
  });
});

describe('Product attributes in the form', () => {
  it('adds typed attributes and sends them as a typed list', async () => {
    const { user, calls } = renderAdd({ 'POST /api/products': () => json(201, saved) });
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333931' });
    const add = screen.getByRole('button', { name: 'Add attribute' });
    await user.click(add);
    await user.click(add);
    await user.click(add);
    const rows = screen.getAllByRole('listitem');
    const [weight, vegan, best] = rows.map((r) => within(r));
    await user.type(weight!.getByLabelText('Attribute name'), 'Net weight');
    await user.selectOptions(weight!.getByLabelText('Type'), 'Number');
    await user.type(weight!.getByLabelText('Value'), '500');
    await user.type(vegan!.getByLabelText('Attribute name'), 'Vegan');
    await user.selectOptions(vegan!.getByLabelText('Type'), 'Yes/No');
    await user.click(vegan!.getByLabelText('Yes'));
    await user.type(best!.getByLabelText('Attribute name'), 'Best before');
    await user.selectOptions(best!.getByLabelText('Type'), 'Date');
    fireEvent.change(best!.getByLabelText('Value'), { target: { value: '2025-06-30' } });
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(await screen.findByText('Product added.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toMatchObject({
      attributes: [
        { type: 'number', name: 'Net weight', value: 500 },
        { type: 'boolean', name: 'Vegan', value: true },
        { type: 'date', name: 'Best before', value: '2025-06-30' },
      ],
    });
  });

  it('shows the rules at their rows and sends nothing', async () => {
    const { user, calls } = renderAdd();
    await fill(user, { name: 'Oat milk', skuid: 'OAT-1', gtin: '4006381333931' });
    const add = screen.getByRole('button', { name: 'Add attribute' });
    await user.click(add);
    await user.click(add);
    const [first, second] = screen.getAllByRole('listitem').map((r) => within(r));
    await user.type(first!.getByLabelText('Attribute name'), 'Colour');
    await user.type(second!.getByLabelText('Attribute name'), 'COLOUR');
    await user.selectOptions(second!.getByLabelText('Type'), 'Number');
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    expect(second!.getByLabelText('Attribute name')).toHaveAccessibleDescription(
      'Another attribute already has this name.',
    );
    expect(second!.getByLabelText('Value')).toHaveAccessibleDescription('Enter a number.');
    expect(posts(calls)).toHaveLength(0);

    await user.click(second!.getByRole('button', { name: 'Remove attribute 2' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('loads the stored list on edit and sends it whole when one changes', async () => {
    signInAs(adminSession);
    const stored = {
      ...saved,
      attributes: [
        { type: 'text' as const, name: 'Colour', value: 'Green' },
        { type: 'boolean' as const, name: 'Vegan', value: true },
      ],
    };
    const { calls } = mockApi({
      'GET /api/products/p-9': () => json(200, stored),
      'PATCH /api/products/p-9': () => json(200, stored),
    });
    const { user } = renderPage(<EditProductPage id="p-9" />, {
      route: '/products/Edit_product/p-9',
    });
    const [colour, vegan] = (await screen.findAllByRole('listitem')).map((r) => within(r));
    expect(colour!.getByLabelText('Value')).toHaveValue('Green');
    expect(vegan!.getByLabelText('Yes')).toBeChecked();
    await user.click(vegan!.getByLabelText('Yes'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Product updated.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({
      attributes: [
        { type: 'text', name: 'Colour', value: 'Green' },
        { type: 'boolean', name: 'Vegan', value: false },
      ],
    });
  });
});

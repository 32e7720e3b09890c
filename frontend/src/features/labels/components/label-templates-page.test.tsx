import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import {
  adminSession,
  brandModules,
  moduleCatalogue,
  renderPage,
  signInAs,
} from '@/testing/render';
import type { LabelTemplate } from '../api/labels-api';
import {
  PRODUCT_ID,
  codeJob,
  codeJobList,
  design,
  png,
  pngUrl,
  productList,
  template,
} from '../test-data';
import { LabelTemplatesPage } from './label-templates-page';

const shelf = template({ id: 'tpl-shelf', name: 'Shelf label' });
const carton = template({
  id: 'tpl-carton',
  name: 'Carton',
  design: design({
    width_mm: 101.6,
    height_mm: 50.8,
    sheet: 'letter_5163',
    symbology: 'datamatrix',
    fields: { product_name: false, gtin: true, lot: true, expiry: false, serial: true },
    font_size_pt: 9,
    margin_mm: 3,
  }),
});

const workerSession: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, role: 'worker' },
  allowedPaths: ['/', '/products', '/print/lables'],
  modules: brandModules,
  moduleCatalogue,
};

type Handlers = Parameters<typeof mockApi>[0];

function setup({
  handlers = {},
  session = adminSession,
}: { handlers?: Handlers; session?: SessionInfo } = {}) {
  signInAs(session);
  let drawn = 0;
  const api = mockApi({
    'GET /api/label-templates': () => json(200, { templates: [carton, shelf] }),
    'GET /api/code-jobs': () =>
      json(
        200,
        codeJobList([
          codeJob({ id: 'code-running', status: 'running', generated: 5, quantity: 10 }),
          codeJob({ id: 'code-done', lot: { number: 'L7' }, generated: 30 }),
        ]),
      ),
    'GET /api/product-handler': () =>
      json(200, productList([{ id: PRODUCT_ID, product_name: 'Green tea' }])),
    'POST /api/label-templates/preview': () => png(++drawn),
    ...handlers,
  });
  const view = renderPage(<LabelTemplatesPage />, { route: '/print/lables' });
  return { ...api, ...view };
}

const previews = (calls: RecordedCall[]) =>
  calls.filter((c) => c.url.pathname === '/api/label-templates/preview');
const writes = (calls: RecordedCall[], method: string) =>
  calls.filter((c) => c.method === method && c.url.pathname.startsWith('/api/label-templates/tpl'));
const table = () => screen.getByRole('table', { name: 'Label templates' });
const rowOf = (text: string) =>
  within(table())
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(text))!;
const designer = (name = 'New template') => within(screen.getByRole('form', { name }));
const preview = () => screen.getByRole('img', { name: /^Preview of the label/ });

afterEach(() => {
  vi.useRealTimers();
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Label templates', () => {
  it('lists the templates with size, barcode, sheet and text lines', async () => {
    setup();
    await screen.findByRole('table', { name: 'Label templates' });
    const row = within(rowOf('Carton'));
    expect(row.getByText('101.6 × 50.8 mm')).toBeInTheDocument();
    expect(row.getByText('GS1 DataMatrix')).toBeInTheDocument();
    expect(row.getByText('Letter, Avery 5163')).toBeInTheDocument();
    expect(row.getByText('GTIN, Lot number, Serial number')).toBeInTheDocument();
    expect(within(rowOf('Shelf label')).getByText('A4, 3 × 8')).toBeInTheDocument();
    // A link to printing for those who may open it.
    expect(screen.getByRole('link', { name: 'Print labels' })).toHaveAttribute('href', '/printer/');
  });

  it('draws the preview a moment after the last change, keeping the last image dimmed meanwhile', async () => {
    fakeTimeouts();
    const { calls } = setup();
    await settle();
    // The first preview waits for the delay too; meanwhile a placeholder, not a bare spinner.
    expect(previews(calls)).toHaveLength(0);
    expect(screen.getByText('Drawing the preview…')).toBeInTheDocument();
    expect(screen.getByText('Updating the preview…')).toBeInTheDocument();
    await tick(300);
    expect(previews(calls)).toHaveLength(1);
    expect(previews(calls)[0]!.body).toEqual({ design: design() });
    expect(previews(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(preview()).toHaveAttribute('src', pngUrl(1));
    expect(preview()).toHaveAccessibleName(
      'Preview of the label: 70 × 37 mm, QR code, with a sample code',
    );

    // Three quick edits: one request, for the last of them.
    const form = designer();
    fireEvent.change(form.getByLabelText('Font size (pt)'), { target: { value: '6' } });
    await tick(100);
    fireEvent.change(form.getByLabelText('Font size (pt)'), { target: { value: '8' } });
    await tick(100);
    fireEvent.click(form.getByLabelText('Serial number'));
    await tick(299);
    expect(previews(calls)).toHaveLength(1);
    // The last image stays, dimmed, while the next is drawn.
    expect(preview()).toHaveAttribute('src', pngUrl(1));
    expect(preview().closest('.label-preview')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Updating the preview…')).toBeInTheDocument();
    await tick(1);
    expect(previews(calls)).toHaveLength(2);
    expect(previews(calls)[1]!.body).toEqual({
      design: design({
        font_size_pt: 8,
        fields: { product_name: true, gtin: true, lot: true, expiry: true, serial: false },
      }),
    });
    expect(preview()).toHaveAttribute('src', pngUrl(2));
    expect(preview().closest('.label-preview')).toHaveAttribute('aria-busy', 'false');
  });

  it('shows the renderer’s reason instead of the image when it refuses the design', async () => {
    fakeTimeouts();
    const message =
      'The design is 90 × 37 mm but the sheet "A4 3×8" has 70 × 37 mm labels; set the design to that size or choose a sheet that matches.';
    const { calls } = setup({
      handlers: {
        'POST /api/label-templates/preview': (call) =>
          (call.body as { design: { width_mm: number } }).design.width_mm === 90
            ? json(400, { error: message, code: 'invalid_input' })
            : png(2),
      },
    });
    await settle();
    await tick(300);
    expect(preview()).toBeInTheDocument();
    fireEvent.change(designer().getByLabelText('Width (mm)'), { target: { value: '90' } });
    await tick(300);
    expect(previews(calls)).toHaveLength(2);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('img', { name: /^Preview of the label/ })).not.toBeInTheDocument();

    // Fixed: the image is back.
    fireEvent.change(designer().getByLabelText('Width (mm)'), { target: { value: '70' } });
    await tick(300);
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(preview()).toHaveAttribute('src', pngUrl(2));
  });

  it('asks nothing while a size is not a number in range, and says why', async () => {
    fakeTimeouts();
    const { calls } = setup();
    await settle();
    await tick(300);
    fireEvent.change(designer().getByLabelText('Height (mm)'), { target: { value: '' } });
    await tick(1000);
    expect(previews(calls)).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the height, 10 to 300 mm.');
    fireEvent.change(designer().getByLabelText('Height (mm)'), { target: { value: '400' } });
    await tick(1000);
    expect(previews(calls)).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('The height must be 10 to 300 mm.');
  });

  it('previews with the first code of a done code job when one is chosen', async () => {
    fakeTimeouts();
    const { calls } = setup();
    await settle();
    const select = screen.getByLabelText('Show the label with');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    // A sample code, and done jobs only.
    expect(options).toHaveLength(2);
    expect(options[1]).toMatch(/^Green tea — lot L7 · 30 codes · /);
    fireEvent.change(select, { target: { value: 'code-done' } });
    await tick(300);
    expect(previews(calls).at(-1)!.body).toEqual({ design: design(), code_job_id: 'code-done' });
    expect(preview()).toHaveAccessibleName(
      'Preview of the label: 70 × 37 mm, QR code, with the first code of Green tea, lot L7 · 30 codes',
    );
  });

  it('fills in the label size of the sheet chosen', async () => {
    const { user } = setup();
    const form = designer();
    await user.selectOptions(form.getByLabelText('Sheet'), 'letter_5163');
    expect(form.getByLabelText('Width (mm)')).toHaveValue('101.6');
    expect(form.getByLabelText('Height (mm)')).toHaveValue('50.8');
    expect(form.getByLabelText('Sheet')).toHaveAccessibleDescription(
      'This sheet’s labels are 101.6 × 50.8 mm.',
    );
    await user.clear(form.getByLabelText('Width (mm)'));
    await user.type(form.getByLabelText('Width (mm)'), '60');
    await user.selectOptions(form.getByLabelText('Sheet'), 'single');
    expect(form.getByLabelText('Width (mm)')).toHaveValue('60');
    expect(form.getByLabelText('Height (mm)')).toHaveValue('50.8');
  });

  it('saves a new template: a toast, the list, and the designer now edits it', async () => {
    const saved = template({
      id: 'tpl-new',
      name: 'Pallet',
      design: design({ symbology: 'datamatrix' }),
    });
    const { user, calls } = setup({
      handlers: { 'POST /api/label-templates': () => json(201, saved) },
    });
    await screen.findByRole('table', { name: 'Label templates' });
    const form = designer();
    await user.type(form.getByLabelText('Name'), '  Pallet ');
    await user.selectOptions(form.getByLabelText('Barcode'), 'datamatrix');
    await user.click(form.getByRole('button', { name: 'Save template' }));
    expect(await screen.findByText('Template “Pallet” saved.')).toBeInTheDocument();
    const post = calls.find(
      (c) => c.method === 'POST' && c.url.pathname === '/api/label-templates',
    );
    expect(post!.body).toEqual({ name: 'Pallet', design: design({ symbology: 'datamatrix' }) });
    expect(post!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    // By name.
    expect(
      within(table())
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('.table__value')?.textContent),
    ).toEqual(['Carton', 'Pallet', 'Shelf label']);
    expect(screen.getByRole('heading', { name: 'Edit “Pallet”' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit template Pallet' })).toBeInTheDocument();
  });

  it('checks the form before sending', async () => {
    const { user, calls } = setup();
    const form = designer();
    await user.clear(form.getByLabelText('Margin (mm)'));
    await user.type(form.getByLabelText('Margin (mm)'), '25');
    await user.click(form.getByRole('button', { name: 'Save template' }));
    expect(form.getByLabelText('Name')).toHaveAccessibleDescription(
      /Enter a name for the template\./,
    );
    expect(form.getByLabelText('Margin (mm)')).toHaveAccessibleDescription(
      /The margin must be 0 to 20 mm\./,
    );
    expect(
      calls.filter((c) => c.method === 'POST' && !c.url.pathname.endsWith('/preview')),
    ).toHaveLength(0);
  });

  it('shows the server’s refusals as worded: a taken name at the name, a design above the form', async () => {
    const tooSmall =
      'The label is 70 × 37 mm; with these margins and text lines there is room for a 3.0 mm square symbol, but a QR code needs at least 11.6 mm. Make the label larger, reduce the margin or font size, or show fewer text fields.';
    let n = 0;
    const { user } = setup({
      handlers: {
        'POST /api/label-templates': () =>
          ++n === 1
            ? json(409, {
                error: 'Another label template already has this name.',
                code: 'conflict',
              })
            : json(400, { error: tooSmall, code: 'invalid_input' }),
      },
    });
    const form = designer();
    await user.type(form.getByLabelText('Name'), 'Shelf label');
    await user.click(form.getByRole('button', { name: 'Save template' }));
    await waitFor(() =>
      expect(form.getByLabelText('Name')).toHaveAccessibleDescription(
        /Another label template already has this name\./,
      ),
    );
    await user.type(form.getByLabelText('Name'), ' 2');
    expect(form.getByLabelText('Name')).not.toHaveAccessibleDescription(/already has this name/);
    await user.click(form.getByRole('button', { name: 'Save template' }));
    expect(await form.findByText(tooSmall)).toBeInTheDocument();
  });

  it('edits a template: its design in the form, then a PUT', async () => {
    const { user, calls } = setup({
      handlers: {
        'PUT /api/label-templates/tpl-carton': (call) =>
          json(200, { ...carton, ...(call.body as object), updated_at: '2026-04-01T10:00:00Z' }),
      },
    });
    await screen.findByRole('table', { name: 'Label templates' });
    await user.click(within(rowOf('Carton')).getByRole('button', { name: 'Edit Carton' }));
    const form = designer('Edit template Carton');
    expect(form.getByLabelText('Name')).toHaveFocus();
    expect(form.getByLabelText('Name')).toHaveValue('Carton');
    expect(form.getByLabelText('Sheet')).toHaveValue('letter_5163');
    expect(form.getByLabelText('Width (mm)')).toHaveValue('101.6');
    expect(form.getByLabelText('Barcode')).toHaveValue('datamatrix');
    expect(form.getByLabelText('Product name')).not.toBeChecked();
    expect(form.getByLabelText('GTIN')).toBeChecked();
    await user.click(form.getByLabelText('Expiry date'));
    await user.click(form.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Template “Carton” updated.')).toBeInTheDocument();
    expect(writes(calls, 'PUT')[0]!.body).toEqual({
      name: 'Carton',
      design: { ...carton.design, fields: { ...carton.design.fields, expiry: true } },
    });
    expect(
      within(rowOf('Carton')).getByText('GTIN, Lot number, Expiry date, Serial number'),
    ).toBeInTheDocument();

    // Cancel: back to a new template.
    await user.click(form.getByRole('button', { name: 'Cancel' }));
    expect(designer().getByLabelText('Name')).toHaveValue('');
  });

  it('deletes a template after asking', async () => {
    const { user, calls } = setup({
      handlers: {
        'DELETE /api/label-templates/tpl-shelf': () => new Response(null, { status: 204 }),
      },
    });
    await screen.findByRole('table', { name: 'Label templates' });
    await user.click(
      within(rowOf('Shelf label')).getByRole('button', { name: 'Delete Shelf label' }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Delete template' });
    expect(dialog).toHaveTextContent('Delete this label template?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(writes(calls, 'DELETE')).toHaveLength(0);

    await user.click(
      within(rowOf('Shelf label')).getByRole('button', { name: 'Delete Shelf label' }),
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Template “Shelf label” deleted.')).toBeInTheDocument();
    expect(writes(calls, 'DELETE')).toHaveLength(1);
    expect(within(table()).queryByText('Shelf label')).not.toBeInTheDocument();
  });

  it('lets a worker design templates, without the link to printing', async () => {
    setup({ session: workerSession });
    await screen.findByRole('table', { name: 'Label templates' });
    expect(screen.getByRole('form', { name: 'New template' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Carton' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Print labels' })).not.toBeInTheDocument();
  });

  it('says when the templates cannot be loaded, and tries again', async () => {
    let n = 0;
    const { user } = setup({
      handlers: {
        'GET /api/label-templates': () =>
          ++n === 1
            ? json(500, { error: '', code: 'internal' })
            : json(200, { templates: [] as LabelTemplate[] }),
      },
    });
    expect(await screen.findByText('The label templates could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('No label templates yet: design the first one below.'),
    ).toBeInTheDocument();
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { TOAST_AUTO_CLOSE_MS } from '@/components/ui/toaster';
import { json, mockApi, networkDown, type RecordedCall } from '@/testing/mock-api';
import type { SessionInfo } from '@/lib/api/types';
import { adminSession, clientAdminSession, renderPage, signInAs } from '@/testing/render';
import { useAppStore } from '@/stores/app-store';
import { AllUsersPage } from './all-users-page';

const worker = { id: 'u-1', name: 'Wendy Worker', email: 'worker@acme.test', role: 'worker' };
const manager = { id: 'u-2', name: 'Max Manager', email: 'manager@acme.test', role: 'manager' };

type Handlers = Parameters<typeof mockApi>[0];

function setup(handlers: Handlers = {}, session: SessionInfo = adminSession) {
  signInAs(session);
  const api = mockApi({
    'GET /api/account-info': () => json(200, [worker, manager]),
    ...handlers,
  });
  const view = renderPage(<AllUsersPage />, { route: '/manage_org' });
  return { ...api, ...view };
}

const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'GET');

async function openAddUser(user: ReturnType<typeof setup>['user']) {
  await user.click(screen.getByRole('button', { name: 'Add User' }));
  return screen.findByRole('dialog', { name: 'Add New User' });
}

async function fillAddUser(
  user: ReturnType<typeof setup>['user'],
  dialog: HTMLElement,
  values: { name?: string; email?: string; password?: string; role?: string },
) {
  const d = within(dialog);
  if (values.name) await user.type(d.getByLabelText('Name'), values.name);
  if (values.role) await user.selectOptions(d.getByLabelText('Role'), values.role);
  if (values.email) await user.type(d.getByLabelText('Email'), values.email);
  if (values.password) await user.type(d.getByLabelText('Password'), values.password);
}

const validNewUser = { name: 'Nina New', email: 'nina@acme.test', password: 'a-long-password' };

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('All Users page', () => {
  it('shows the header, the Add User button and every user with name, email, role and icons', async () => {
    const { calls } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'All Users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add User' })).toBeInTheDocument();

    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(3);
    const first = within(rows[1]!);
    expect(first.getByText('Wendy Worker')).toBeInTheDocument();
    expect(first.getByText('worker@acme.test')).toBeInTheDocument();
    expect(first.getByText('Worker')).toBeInTheDocument();
    expect(first.getByTitle('Delete User')).toBeInTheDocument();
    expect(first.getByTitle('Update Password')).toBeInTheDocument();
    expect(screen.getAllByTitle('Delete User')).toHaveLength(2);
    expect(screen.getAllByTitle('Update Password')).toHaveLength(2);

    expect(calls[0]!.url.searchParams.get('action')).toBe('otheraccountinfo');
  });

  it('shows a retry when the list cannot be loaded', async () => {
    let fail = true;
    const { user } = setup({
      'GET /api/account-info': () =>
        fail ? json(500, { error: 'boom', code: 'internal' }) : json(200, [worker]),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('boom');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Wendy Worker')).toBeInTheDocument();
  });

  describe('Add New User', () => {
    it('opens with Name, Role (Worker or Manager, Worker first), Email, Password, Submit and Cancel', async () => {
      const { user } = setup();
      const dialog = await openAddUser(user);
      const d = within(dialog);
      expect(d.getByLabelText('Name')).toHaveValue('');
      const role = d.getByLabelText('Role');
      expect(role).toHaveValue('worker');
      expect(
        within(role)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Worker', 'Manager']);
      expect(d.getByLabelText('Email')).toHaveValue('');
      expect(d.getByLabelText('Password')).toHaveValue('');
      expect(d.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
      expect(d.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
      expect(d.getByLabelText('Name')).toHaveFocus();
    });

    it('adds a user with the CSRF token, says so, closes and shows the user without a reload', async () => {
      const added = { id: 'u-9', name: 'Nina New', email: 'nina@acme.test', role: 'manager' };
      const { user, calls } = setup({ 'POST /api/client-auth': () => json(201, added) });
      await screen.findByText('Wendy Worker');
      const dialog = await openAddUser(user);
      await fillAddUser(user, dialog, { ...validNewUser, role: 'manager' });
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

      expect(await screen.findByText('User Added Successfully!')).toBeInTheDocument();
      const [post] = posts(calls);
      expect(post!.body).toEqual({
        action: 'adduser',
        name: 'Nina New',
        email: 'nina@acme.test',
        password: 'a-long-password',
        role: 'manager',
      });
      expect(post!.headers.get('x-csrf-token')).toBe('csrf-test-token');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByText('nina@acme.test')).toBeInTheDocument();
      expect(screen.getAllByRole('row')).toHaveLength(4);
    });

    it("offers a client organisation's admin the server's roles: Employee, chosen, and sends it", async () => {
      const added = { id: 'u-9', ...validNewUser, role: 'employee' };
      const { user, calls } = setup(
        {
          'GET /api/account-info': () => json(200, []),
          'POST /api/client-auth': () => json(201, added),
        },
        clientAdminSession,
      );
      const dialog = await openAddUser(user);
      const role = within(dialog).getByLabelText('Role');
      expect(
        within(role)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Employee']);
      expect(role).toHaveValue('employee');
      await fillAddUser(user, dialog, validNewUser);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await screen.findByText('User Added Successfully!');
      expect((posts(calls)[0]!.body as { role: string }).role).toBe('employee');
      expect(screen.getByText('nina@acme.test')).toBeInTheDocument();
    });

    it('offers no Add User to someone the server gives no roles to assign', async () => {
      setup({}, { ...adminSession, assignableRoles: [] });
      await screen.findByText('Wendy Worker');
      expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
    });

    it('sends the default role worker', async () => {
      const { user, calls } = setup({
        'POST /api/client-auth': () => json(201, { id: 'u-9', ...validNewUser, role: 'worker' }),
      });
      const dialog = await openAddUser(user);
      await fillAddUser(user, dialog, validNewUser);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await screen.findByText('User Added Successfully!');
      expect((posts(calls)[0]!.body as { role: string }).role).toBe('worker');
    });

    it.each(['nina', 'nina@acme', 'nina@@acme.test', 'ni na@acme.test', '@acme.test', 'nina@.'])(
      'refuses the email %o with the toast and sends nothing',
      async (email) => {
        const { user, calls } = setup();
        await screen.findByText('Wendy Worker');
        const dialog = await openAddUser(user);
        await fillAddUser(user, dialog, { ...validNewUser, email });
        await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
        expect(await screen.findAllByText('Invalid Email format.')).not.toHaveLength(0);
        expect(posts(calls)).toHaveLength(0);
        expect(screen.getByRole('dialog', { name: 'Add New User' })).toBeInTheDocument();
      },
    );

    it('requires name, email and password and sends nothing without them', async () => {
      const { user, calls } = setup();
      const dialog = await openAddUser(user);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      const d = within(dialog);
      expect(d.getByText('Enter a name.')).toBeInTheDocument();
      expect(d.getByText('Enter an email address.')).toBeInTheDocument();
      expect(d.getByText('Enter a password.')).toBeInTheDocument();
      expect(posts(calls)).toHaveLength(0);
    });

    it.each([
      [
        'the user limit (by message)',
        json(403, { error: 'You have reached limit to add users.', code: 'forbidden' }),
        'You have reached the limit to add users.',
      ],
      [
        'the user limit (by code)',
        json(403, { error: 'You have reached limit to add users.', code: 'user_limit' }),
        'You have reached the limit to add users.',
      ],
      [
        'another 403',
        json(403, {
          error: 'You do not have permission to perform this action.',
          code: 'forbidden',
        }),
        'You do not have permission to perform this action.',
      ],
      [
        'a taken email (409)',
        json(409, {
          error: 'This email address cannot be used for a new account. Use another address.',
          code: 'conflict',
        }),
        'An unexpected error occurred. Please try again.',
      ],
      [
        'invalid input (400)',
        json(400, { error: 'Password must be 8 to 128 characters.', code: 'invalid_input' }),
        'An unexpected error occurred. Please try again.',
      ],
      [
        'a server error (500)',
        json(500, { error: 'Internal error', code: 'internal' }),
        'An unexpected error occurred. Please try again.',
      ],
    ])('on %s shows its toast and keeps the modal open', async (_, response, message) => {
      const { user } = setup({ 'POST /api/client-auth': () => response });
      await screen.findByText('Wendy Worker');
      const dialog = await openAddUser(user);
      await fillAddUser(user, dialog, validNewUser);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Add New User' })).toBeInTheDocument();
      expect(screen.getAllByRole('row')).toHaveLength(3);
    });

    it('explains a taken email inside the modal too', async () => {
      const { user } = setup({
        'POST /api/client-auth': () =>
          json(409, {
            error: 'This email address cannot be used for a new account. Use another address.',
            code: 'conflict',
          }),
      });
      const dialog = await openAddUser(user);
      await fillAddUser(user, dialog, validNewUser);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(
        await within(dialog).findByText(
          'This email address cannot be used for a new account. Use another address.',
        ),
      ).toBeInTheDocument();
    });

    it('on a network failure shows the network toast', async () => {
      const { user } = setup({ 'POST /api/client-auth': () => networkDown() });
      const dialog = await openAddUser(user);
      await fillAddUser(user, dialog, validNewUser);
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(
        await screen.findByText('A network error occurred. Please check your connection.'),
      ).toBeInTheDocument();
    });

    it('closes on Cancel and on Escape, returning focus to Add User, and opens empty again', async () => {
      const { user, calls } = setup();
      let dialog = await openAddUser(user);
      await user.type(within(dialog).getByLabelText('Name'), 'Half typed');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Add User' })).toHaveFocus();

      dialog = await openAddUser(user);
      expect(within(dialog).getByLabelText('Name')).toHaveValue('');
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(posts(calls)).toHaveLength(0);
    });

    it('keeps Tab and Shift+Tab inside the modal', async () => {
      const { user } = setup();
      const dialog = await openAddUser(user);
      const submit = within(dialog).getByRole('button', { name: 'Submit' });
      const close = within(dialog).getByRole('button', { name: 'Close' });
      submit.focus();
      await user.tab();
      expect(close).toHaveFocus();
      await user.tab({ shift: true });
      expect(submit).toHaveFocus();
      for (let i = 0; i < 12; i += 1) {
        await user.tab();
        expect(dialog.contains(document.activeElement)).toBe(true);
      }
    });
  });

  describe('Delete User', () => {
    it('asks first; Cancel sends nothing', async () => {
      const { user, calls } = setup();
      await user.click((await screen.findAllByTitle('Delete User'))[0]!);
      const dialog = screen.getByRole('alertdialog', { name: 'Delete User' });
      expect(dialog).toHaveTextContent('Are you sure you want to delete this user?');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(posts(calls)).toHaveLength(0);
      expect(screen.getByText('Wendy Worker')).toBeInTheDocument();
    });

    it('deletes on confirmation and removes the row without a reload', async () => {
      const { user, calls } = setup({ 'POST /api/client-auth': () => json(200, { ok: true }) });
      await user.click((await screen.findAllByTitle('Delete User'))[0]!);
      await user.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );
      expect(await screen.findByText('User Deleted Successfully')).toBeInTheDocument();
      expect(posts(calls)[0]!.body).toEqual({ action: 'removeuser', user_id: 'u-1' });
      expect(posts(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
      expect(screen.queryByText('Wendy Worker')).not.toBeInTheDocument();
      expect(screen.getByText('Max Manager')).toBeInTheDocument();
    });

    it.each([
      ['a refusal', () => json(404, { error: 'No such user.', code: 'not_found' })],
      ['a network failure', () => networkDown()],
    ])('on %s says so and keeps the row', async (_, respond) => {
      const { user } = setup({ 'POST /api/client-auth': respond });
      await user.click((await screen.findAllByTitle('Delete User'))[0]!);
      await user.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );
      expect(await screen.findByText('Failed to delete user.')).toBeInTheDocument();
      expect(screen.getByText('Wendy Worker')).toBeInTheDocument();
    });
  });

  describe('Update Password', () => {
    async function openFor(user: ReturnType<typeof setup>['user'], index = 0) {
      await user.click((await screen.findAllByTitle('Update Password'))[index]!);
      return screen.getByRole('dialog', { name: 'Update Password' });
    }

    it('has New Password, Submit and Cancel; sends nothing when empty', async () => {
      const { user, calls } = setup();
      const dialog = await openFor(user);
      const d = within(dialog);
      expect(d.getByLabelText('New Password')).toHaveValue('');
      expect(d.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
      await user.click(d.getByRole('button', { name: 'Submit' }));
      expect(posts(calls)).toHaveLength(0);
      expect(screen.getByRole('dialog', { name: 'Update Password' })).toBeInTheDocument();
    });

    it('updates the password for that email and says so', async () => {
      const { user, calls } = setup({ 'PATCH /api/client-auth': () => json(200, { ok: true }) });
      const dialog = await openFor(user, 1);
      await user.type(within(dialog).getByLabelText('New Password'), 'brand-new-pass');
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText('Password updated successfully')).toBeInTheDocument();
      const [patch] = posts(calls);
      expect(patch!.method).toBe('PATCH');
      expect(patch!.body).toEqual({
        action: 'resetorguserpassword',
        email: 'manager@acme.test',
        new_password: 'brand-new-pass',
      });
      expect(patch!.headers.get('x-csrf-token')).toBe('csrf-test-token');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it.each([
      ['a refusal', () => json(400, { error: 'Too short', code: 'invalid_input' })],
      ['a network failure', () => networkDown()],
    ])('on %s says it failed', async (_, respond) => {
      const { user } = setup({ 'PATCH /api/client-auth': respond });
      const dialog = await openFor(user);
      await user.type(within(dialog).getByLabelText('New Password'), 'brand-new-pass');
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText('Failed to update password')).toBeInTheDocument();
    });

    it('clears the input every time it opens', async () => {
      const { user } = setup();
      let dialog = await openFor(user);
      await user.type(within(dialog).getByLabelText('New Password'), 'typed-then-cancelled');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      dialog = await openFor(user);
      expect(within(dialog).getByLabelText('New Password')).toHaveValue('');
      await user.keyboard('{Escape}');
      dialog = await openFor(user, 1);
      expect(within(dialog).getByLabelText('New Password')).toHaveValue('');
    });
  });

  describe('toasts', () => {
    it('appear top-right and Alt+T moves focus to them', async () => {
      const { user } = setup({ 'POST /api/client-auth': () => json(200, { ok: true }) });
      await user.click((await screen.findAllByTitle('Delete User'))[0]!);
      await user.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );
      const message = await screen.findByText('User Deleted Successfully');
      const container = document.querySelector('.Toastify__toast-container');
      expect(container).toHaveClass('Toastify__toast-container--top-right');
      expect(container).toContainElement(message);

      fireEvent.keyDown(document, { key: 't', code: 'KeyT', altKey: true });
      expect(container!.contains(document.activeElement)).toBe(true);
    });

    it(`close after ${TOAST_AUTO_CLOSE_MS} ms`, async () => {
      expect(TOAST_AUTO_CLOSE_MS).toBe(3500);
      const { user } = setup({ 'POST /api/client-auth': () => json(200, { ok: true }) });
      await user.click((await screen.findAllByTitle('Delete User'))[0]!);
      await user.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );
      const toastEl = (await screen.findByText('User Deleted Successfully')).closest(
        '.Toastify__toast',
      );
      const bar = toastEl?.querySelector('.Toastify__progress-bar');
      expect(bar).toHaveStyle({ animationDuration: '3500ms' });
    });
  });

  it('signs out when the server says the session is gone', async () => {
    setup({
      'GET /api/account-info': () =>
        json(401, { error: 'Sign in first.', code: 'unauthenticated' }),
    });
    await waitFor(() => expect(useAppStore.getState().auth.csrfToken).toBeNull());
    expect(useAppStore.getState().auth.user).toBeNull();
  });
});

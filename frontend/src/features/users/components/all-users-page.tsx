import { PenIcon } from '@solar-icons/react/linear/pen';
import { TrashBinTrashIcon } from '@solar-icons/react/linear/trash-bin-trash';
import { UserPlusRoundedIcon } from '@solar-icons/react/linear/user-plus-rounded';
import { UsersGroupRoundedIcon } from '@solar-icons/react/linear/users-group-rounded';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import type { OrgUser } from '@/lib/api/types';
import { roleLabel } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { loadOrgUsers, removeOrgUser } from '../api/users-api';
import { userMessages } from '../messages';
import { AddUserModal } from './add-user-modal';
import { UpdatePasswordModal } from './update-password-modal';

const USER_COLUMNS: readonly Column<OrgUser>[] = [
  { header: 'Name', cell: (user) => user.name },
  { header: 'Email', cell: (user) => user.email },
  {
    header: 'Role',
    cell: (user) => (
      <span className={`badge ${user.role === 'admin' ? 'badge--primary' : ''}`}>
        {roleLabel(user.role)}
      </span>
    ),
  },
];

/** `/manage_org`: the organisation's users (spec §2, §5, §8). */
export function AllUsersPage() {
  const users = useAppStore((s) => s.users);
  // The server says which roles this admin may give; without any, no Add User.
  const canAdd = useAppStore((s) => s.auth.assignableRoles.length > 0);
  const [adding, setAdding] = useState(false);
  const [passwordFor, setPasswordFor] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<OrgUser | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  useEffect(() => {
    void loadOrgUsers();
  }, []);

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    const ok = await removeOrgUser(deleting.id);
    setDeleteBusy(false);
    setDeleting(null);
    if (ok) toast.success(userMessages.deleted);
    else toast.error(userMessages.deleteFailed);
  }

  return (
    <>
      <PageHeader
        title="All Users"
        description="People of your organisation who can sign in to brandops."
        actions={
          canAdd ? (
            <Button onClick={() => setAdding(true)}>
              <UserPlusRoundedIcon />
              Add User
            </Button>
          ) : null
        }
      />

      {users.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadOrgUsers()}>{users.error}</ErrorAlert>
      ) : null}

      {users.status === 'loading' && users.data.length === 0 ? (
        <LoadingBlock label="Loading users…" />
      ) : null}

      {users.status === 'succeeded' && users.data.length === 0 ? (
        <EmptyState icon={<UsersGroupRoundedIcon />}>
          No other users yet. Add the people who work with you.
        </EmptyState>
      ) : null}

      {users.data.length > 0 ? (
        <DataTable
          label="Users"
          columns={USER_COLUMNS}
          rows={users.data}
          rowKey={(user) => user.id}
          actions={(user) => (
            <>
              <button
                type="button"
                className="icon-btn"
                title="Update Password"
                aria-label={`Update Password for ${user.name}`}
                onClick={() => setPasswordFor(user.email)}
              >
                <PenIcon />
              </button>
              <button
                type="button"
                className="icon-btn icon-btn--danger"
                title="Delete User"
                aria-label={`Delete User ${user.name}`}
                onClick={() => setDeleting(user)}
              >
                <TrashBinTrashIcon />
              </button>
            </>
          )}
        />
      ) : null}

      <AddUserModal open={adding} onClose={() => setAdding(false)} />
      <UpdatePasswordModal email={passwordFor} onClose={() => setPasswordFor(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete User"
        message={userMessages.confirmDelete}
        detail={
          deleting
            ? `${deleting.name} (${deleting.email}) will no longer be able to sign in.`
            : null
        }
        confirmLabel="Delete"
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

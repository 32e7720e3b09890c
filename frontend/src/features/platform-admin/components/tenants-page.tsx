import { Buildings2Icon } from '@solar-icons/react/linear/buildings-2';
import { WidgetAddIcon } from '@solar-icons/react/linear/widget-add';
import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Stat } from '@/components/ui/stat';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate, formatNumber } from '@/lib/format';
import { listTenants, setTenantSuspended, type Tenant } from '../api/tenants-api';
import { OnboardTenantModal } from './onboard-tenant-modal';

const TENANT_COLUMNS: readonly Column<Tenant>[] = [
  { header: 'Organisation', cell: (tenant) => tenant.name },
  { header: 'Tenant id', cell: (tenant) => <code>{tenant.clientId}</code> },
  { header: 'Kind', cell: (tenant) => (tenant.kind === 'brand' ? 'Brand' : 'Client') },
  {
    header: 'Users',
    className: 'num',
    cell: (tenant) => `${formatNumber(tenant.userCount)} / ${formatNumber(tenant.userLimit)}`,
  },
  {
    header: 'Status',
    cell: (tenant) => (
      <span className={`badge ${tenant.status === 'active' ? 'badge--success' : 'badge--warning'}`}>
        {tenant.status}
      </span>
    ),
  },
  { header: 'Created', cell: (tenant) => formatDate(tenant.createdAt) },
];

function TenantStats({ tenants }: { tenants: readonly Tenant[] }) {
  const active = tenants.filter((t) => t.status === 'active').length;
  const users = tenants.reduce((sum, t) => sum + t.userCount, 0);
  return (
    <div className="stats">
      <Stat label="Tenants">{formatNumber(tenants.length)}</Stat>
      <Stat label="Active">{formatNumber(active)}</Stat>
      <Stat label="Users">{formatNumber(users)}</Stat>
    </div>
  );
}

/** `/admin/dashboard`: platform admins see every tenant, onboard and suspend them. */
export function TenantsPage() {
  const { result: tenants, reload, update } = useApiResult(listTenants);
  const [onboarding, setOnboarding] = useState(false);
  const [changing, setChanging] = useState<Tenant | null>(null);
  const [busy, setBusy] = useState(false);

  function replace(tenant: Tenant) {
    update((list) =>
      list.some((t) => t.clientId === tenant.clientId)
        ? list.map((t) => (t.clientId === tenant.clientId ? tenant : t))
        : [...list, tenant],
    );
  }

  async function confirmChange() {
    if (!changing) return;
    const suspend = changing.status === 'active';
    setBusy(true);
    const result = await setTenantSuspended(changing.clientId, suspend);
    setBusy(false);
    setChanging(null);
    if (result.ok) {
      replace(result.data);
      toast.success(
        suspend ? `${result.data.name} is suspended.` : `${result.data.name} is active again.`,
      );
    } else {
      toast.error(result.message);
    }
  }

  return (
    <>
      <PageHeader
        title="Tenants"
        description="Every organisation on the platform."
        actions={
          <Button onClick={() => setOnboarding(true)}>
            <WidgetAddIcon />
            Onboard a tenant
          </Button>
        }
      />
      <ApiResultView result={tenants} onRetry={reload} loadingLabel="Loading tenants…">
        {(list) => (
          <>
            <TenantStats tenants={list} />
            {list.length === 0 ? (
              <EmptyState icon={<Buildings2Icon />}>
                No tenants yet. Onboard the first organisation.
              </EmptyState>
            ) : (
              <DataTable
                label="Tenants"
                columns={TENANT_COLUMNS}
                rows={list}
                rowKey={(tenant) => tenant.clientId}
                actions={(tenant) => (
                  <Button
                    variant={tenant.status === 'active' ? 'secondary' : 'primary'}
                    onClick={() => setChanging(tenant)}
                    aria-label={`${tenant.status === 'active' ? 'Suspend' : 'Reactivate'} ${tenant.name}`}
                  >
                    {tenant.status === 'active' ? 'Suspend' : 'Reactivate'}
                  </Button>
                )}
              />
            )}
          </>
        )}
      </ApiResultView>
      <OnboardTenantModal
        open={onboarding}
        onClose={() => setOnboarding(false)}
        onCreated={replace}
      />
      <ConfirmDialog
        open={changing !== null}
        title={changing?.status === 'active' ? 'Suspend tenant' : 'Reactivate tenant'}
        message={
          changing?.status === 'active'
            ? `Suspend ${changing.name}? Its users cannot sign in until it is reactivated.`
            : `Reactivate ${changing?.name ?? ''}? Its users can sign in again.`
        }
        confirmLabel={changing?.status === 'active' ? 'Suspend' : 'Reactivate'}
        busy={busy}
        onConfirm={() => void confirmChange()}
        onCancel={() => setChanging(null)}
      />
    </>
  );
}

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
import { AdminScansSection } from './admin-scans-section';
import { EditLimitsModal } from './edit-limits-modal';
import { EditModulesModal } from './edit-modules-modal';
import { OnboardTenantModal } from './onboard-tenant-modal';

const TENANT_COLUMNS: readonly Column<Tenant>[] = [
  // The tenant id and kind under the name, and the creation date under the
  // status: with the three limits and three buttons, columns of their own
  // would push the buttons off a 1280 px screen.
  {
    header: 'Organisation',
    cell: (tenant) => (
      <>
        {tenant.name}
        <br />
        <span className="muted">
          <span className="visually-hidden">Tenant id </span>
          <code>{tenant.clientId}</code> · {tenant.kind === 'brand' ? 'Brand' : 'Client'}
        </span>
      </>
    ),
  },
  {
    header: 'Users',
    className: 'num',
    cell: (tenant) => `${formatNumber(tenant.userCount)} / ${formatNumber(tenant.userLimit)}`,
  },
  {
    header: 'Product limit',
    className: 'num',
    cell: (tenant) => formatNumber(tenant.productLimit),
  },
  {
    header: 'Code quota',
    className: 'num',
    cell: (tenant) => formatNumber(tenant.codeQuota),
  },
  {
    header: 'Status',
    cell: (tenant) => (
      <>
        <span
          className={`badge ${tenant.status === 'active' ? 'badge--success' : 'badge--warning'}`}
        >
          {tenant.status}
        </span>
        <br />
        <span className="muted">created {formatDate(tenant.createdAt)}</span>
      </>
    ),
  },
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

/**
 * `/admin/dashboard`: platform admins see every tenant, onboard and suspend
 * them, and set their limits and plan modules; below, the latest scans of every brand.
 */
export function TenantsPage() {
  const { result: tenants, reload, update } = useApiResult(listTenants);
  const [onboarding, setOnboarding] = useState(false);
  const [changing, setChanging] = useState<Tenant | null>(null);
  const [editingLimits, setEditingLimits] = useState<Tenant | null>(null);
  const [editingModules, setEditingModules] = useState<Tenant | null>(null);
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
                  <>
                    <Button
                      variant="secondary"
                      onClick={() => setEditingLimits(tenant)}
                      aria-label={`Edit limits for ${tenant.name}`}
                    >
                      Edit limits
                    </Button>{' '}
                    <Button
                      variant="secondary"
                      onClick={() => setEditingModules(tenant)}
                      aria-label={`Modules of ${tenant.name}`}
                    >
                      Modules
                    </Button>{' '}
                    <Button
                      variant={tenant.status === 'active' ? 'secondary' : 'primary'}
                      onClick={() => setChanging(tenant)}
                      aria-label={`${tenant.status === 'active' ? 'Suspend' : 'Reactivate'} ${tenant.name}`}
                    >
                      {tenant.status === 'active' ? 'Suspend' : 'Reactivate'}
                    </Button>
                  </>
                )}
              />
            )}
          </>
        )}
      </ApiResultView>
      <AdminScansSection
        brands={
          tenants?.ok
            ? tenants.data
                .filter((t) => t.kind === 'brand')
                .map((t) => ({ id: t.clientId, name: t.name }))
            : []
        }
      />
      <OnboardTenantModal
        open={onboarding}
        onClose={() => setOnboarding(false)}
        onCreated={replace}
      />
      <EditLimitsModal
        tenant={editingLimits}
        onClose={() => setEditingLimits(null)}
        onUpdated={replace}
      />
      <EditModulesModal
        tenant={editingModules}
        onClose={() => setEditingModules(null)}
        onUpdated={replace}
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

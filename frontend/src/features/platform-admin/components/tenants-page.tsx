import { Buildings2Icon } from '@solar-icons/react/linear/buildings-2';
import { WidgetAddIcon } from '@solar-icons/react/linear/widget-add';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatDate, formatNumber } from '@/lib/format';
import { listTenants, setTenantSuspended, type Result, type Tenant } from '../api/tenants-api';
import { OnboardTenantModal } from './onboard-tenant-modal';

/** `/admin/dashboard`: platform admins see every tenant, onboard and suspend them. */
export function TenantsPage() {
  const [tenants, setTenants] = useState<Result<Tenant[]> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [onboarding, setOnboarding] = useState(false);
  const [changing, setChanging] = useState<Tenant | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let active = true;
    void listTenants().then((result) => {
      if (active) setTenants(result);
    });
    return () => {
      active = false;
    };
  }, [attempt]);

  function replace(tenant: Tenant) {
    setTenants((current) =>
      current?.ok
        ? {
            ok: true,
            data: current.data.some((t) => t.clientId === tenant.clientId)
              ? current.data.map((t) => (t.clientId === tenant.clientId ? tenant : t))
              : [...current.data, tenant],
          }
        : current,
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

  const list = tenants?.ok ? tenants.data : [];
  const active = list.filter((t) => t.status === 'active').length;
  const users = list.reduce((sum, t) => sum + t.userCount, 0);

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
      {tenants === null ? <LoadingBlock label="Loading tenants…" /> : null}
      {tenants && !tenants.ok ? (
        <ErrorAlert
          onRetry={() => {
            setTenants(null);
            setAttempt((a) => a + 1);
          }}
        >
          {tenants.message}
        </ErrorAlert>
      ) : null}
      {tenants?.ok ? (
        <>
          <div className="stats">
            <div className="stat">
              <div className="stat__label">Tenants</div>
              <div className="stat__value">{formatNumber(list.length)}</div>
            </div>
            <div className="stat">
              <div className="stat__label">Active</div>
              <div className="stat__value">{formatNumber(active)}</div>
            </div>
            <div className="stat">
              <div className="stat__label">Users</div>
              <div className="stat__value">{formatNumber(users)}</div>
            </div>
          </div>
          {list.length === 0 ? (
            <div className="card empty">
              <Buildings2Icon />
              <p>No tenants yet. Onboard the first organisation.</p>
            </div>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="Tenants">
                <thead>
                  <tr>
                    <th scope="col">Organisation</th>
                    <th scope="col">Tenant id</th>
                    <th scope="col" className="hide-sm">
                      Kind
                    </th>
                    <th scope="col" className="num">
                      Users
                    </th>
                    <th scope="col">Status</th>
                    <th scope="col" className="hide-sm">
                      Created
                    </th>
                    <th scope="col" className="actions">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((tenant) => (
                    <tr key={tenant.clientId}>
                      <td>{tenant.name}</td>
                      <td>
                        <code>{tenant.clientId}</code>
                      </td>
                      <td className="hide-sm">{tenant.kind === 'brand' ? 'Brand' : 'Client'}</td>
                      <td className="num">
                        {formatNumber(tenant.userCount)} / {formatNumber(tenant.userLimit)}
                      </td>
                      <td>
                        <span
                          className={`badge ${tenant.status === 'active' ? 'badge--success' : 'badge--warning'}`}
                        >
                          {tenant.status}
                        </span>
                      </td>
                      <td className="hide-sm">{formatDate(tenant.createdAt)}</td>
                      <td className="actions">
                        <Button
                          variant={tenant.status === 'active' ? 'secondary' : 'primary'}
                          onClick={() => setChanging(tenant)}
                          aria-label={`${tenant.status === 'active' ? 'Suspend' : 'Reactivate'} ${tenant.name}`}
                        >
                          {tenant.status === 'active' ? 'Suspend' : 'Reactivate'}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
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

import { ErrorAlert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { useOrganisation } from '../api/organisation-api';
import { RenameForm } from './rename-form';
import { UsageMeter } from './usage-meter';

/** `/configuration`: the organisation's name, user limit and usage, and its modules. */
export function ConfigurationPage() {
  const org = useOrganisation();
  return (
    <>
      <PageHeader title="Configuration" description="Your organisation as brandops knows it." />
      {org.status === 'loading' ? <LoadingBlock /> : null}
      {org.status === 'failed' ? <ErrorAlert onRetry={org.reload}>{org.message}</ErrorAlert> : null}
      {org.status === 'succeeded' ? (
        <>
          <div className="stats">
            <div className="stat">
              <div className="stat__label">Organisation</div>
              <div className="stat__value">{org.organisation.name}</div>
            </div>
            <div className="stat">
              <div className="stat__label">Users</div>
              <div className="stat__value">
                {formatNumber(org.organisation.userCount)} /{' '}
                {formatNumber(org.organisation.userLimit)}
              </div>
              <UsageMeter
                used={org.organisation.userCount}
                limit={org.organisation.userLimit}
                label="Users of the user limit"
              />
            </div>
            <div className="stat">
              <div className="stat__label">Status</div>
              <div className="stat__value">
                <span
                  className={`badge ${org.organisation.status === 'active' ? 'badge--success' : 'badge--warning'}`}
                >
                  {org.organisation.status}
                </span>
              </div>
            </div>
          </div>
          <section className="card" aria-labelledby="org-details">
            <h2 className="card__title" id="org-details">
              Details
            </h2>
            <RenameForm
              key={org.organisation.name}
              organisation={org.organisation}
              onRenamed={org.replace}
            />
            <dl className="dl">
              <dt>Tenant id</dt>
              <dd>
                <code>{org.organisation.clientId}</code>
              </dd>
              <dt>Kind</dt>
              <dd>{org.organisation.kind === 'brand' ? 'Brand' : 'Client'}</dd>
              <dt>User limit</dt>
              <dd>
                {formatNumber(org.organisation.userLimit)} users;{' '}
                {formatNumber(org.organisation.userCount)} in use
              </dd>
            </dl>
          </section>
          <section className="card" aria-labelledby="org-modules">
            <h2 className="card__title" id="org-modules">
              Modules
            </h2>
            {org.organisation.modules.length === 0 ? (
              <p className="muted">No modules are set up for your organisation.</p>
            ) : (
              <div className="table-wrap">
                <table className="table" aria-label="Modules">
                  <thead>
                    <tr>
                      <th scope="col">Module</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {org.organisation.modules.map((module) => (
                      <tr key={module.key}>
                        <td>{module.name}</td>
                        <td>
                          <span className={`badge ${module.enabled ? 'badge--success' : ''}`}>
                            {module.enabled ? 'Enabled' : 'Not enabled'}
                          </span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}

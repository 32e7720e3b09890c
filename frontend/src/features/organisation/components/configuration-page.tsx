import type { ReactNode } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { Stat } from '@/components/ui/stat';
import { formatNumber } from '@/lib/format';
import { useOrganisation, type Organisation } from '../api/organisation-api';
import { BrandIdentity } from './brand-identity';
import { Gs1Form } from './gs1-form';
import { RenameForm } from './rename-form';
import { UsageMeter } from './usage-meter';

type Module = Organisation['modules'][number];

const MODULE_COLUMNS: readonly Column<Module>[] = [
  { header: 'Module', cell: (module) => module.name },
  {
    header: 'Status',
    cell: (module) => (
      <span className={`badge ${module.enabled ? 'badge--success' : ''}`}>
        {module.enabled ? 'Enabled' : 'Not enabled'}
      </span>
    ),
  },
];

/**
 * `/configuration`: the organisation's name and GS1 company prefix, user limit and usage, and its
 * modules; `scanRules` (the route passes the scans feature's rules to a brand)
 * follows them.
 */
export function ConfigurationPage({ scanRules = null }: { scanRules?: ReactNode }) {
  const { result, reload, update } = useOrganisation();
  return (
    <>
      <PageHeader title="Configuration" description="Your organisation as brandops knows it." />
      <ApiResultView result={result} onRetry={reload}>
        {(organisation) => (
          <>
            <div className="stats">
              <Stat label="Organisation">{organisation.name}</Stat>
              <Stat
                label="Users"
                footer={
                  <UsageMeter
                    used={organisation.userCount}
                    limit={organisation.userLimit}
                    label="Users of the user limit"
                  />
                }
              >
                {formatNumber(organisation.userCount)} / {formatNumber(organisation.userLimit)}
              </Stat>
              <Stat label="Status">
                <span
                  className={`badge ${organisation.status === 'active' ? 'badge--success' : 'badge--warning'}`}
                >
                  {organisation.status}
                </span>
              </Stat>
            </div>
            <CardSection title="Details">
              <RenameForm
                key={organisation.name}
                organisation={organisation}
                onRenamed={(renamed) => update(() => renamed)}
              />
              <Gs1Form
                key={`gs1-${organisation.gs1CompanyPrefix ?? ''}`}
                organisation={organisation}
                onSaved={(saved) => update(() => saved)}
              />
              <dl className="dl">
                <dt>Tenant id</dt>
                <dd>
                  <code>{organisation.clientId}</code>
                </dd>
                <dt>Kind</dt>
                <dd>{organisation.kind === 'brand' ? 'Brand' : 'Client'}</dd>
                <dt>User limit</dt>
                <dd>
                  {formatNumber(organisation.userLimit)} users;{' '}
                  {formatNumber(organisation.userCount)} in use
                </dd>
              </dl>
            </CardSection>
            <BrandIdentity
              organisation={organisation}
              onChanged={(changed) => update(() => changed)}
            />
            <CardSection title="Modules">
              {organisation.modules.length === 0 ? (
                <p className="muted">No modules are set up for your organisation.</p>
              ) : (
                <DataTable
                  label="Modules"
                  columns={MODULE_COLUMNS}
                  rows={organisation.modules}
                  rowKey={(module) => module.key}
                />
              )}
            </CardSection>
            {scanRules ? <div className="section">{scanRules}</div> : null}
          </>
        )}
      </ApiResultView>
    </>
  );
}

import { Buildings2Icon } from '@solar-icons/react/linear/buildings-2';
import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { useAppStore } from '@/stores/app-store';
import { canAddCompanies } from '../access';
import { useCompanies, type Company } from '../api/companies-api';
import { AddCompanyForm } from './add-company-form';
import { CompanyOverviewView } from './company-overview';

function byCin(a: Company, b: Company) {
  return a.cin < b.cin ? -1 : a.cin > b.cin ? 1 : 0;
}

/**
 * `/clientA/dashboard`: the CIN selector. Client A's companies by CIN; the
 * chosen one's products, batches and codes; admins add companies.
 */
export function ClientADashboardPage() {
  const { result, reload, update } = useCompanies();
  const role = useAppStore((s) => s.auth.user?.role);
  const canAdd = canAddCompanies(role);
  const [selected, setSelected] = useState('');

  function added(company: Company) {
    update((list) => ({ companies: [...list.companies, company].sort(byCin) }));
    setSelected(company.id);
  }

  return (
    <>
      <PageHeader
        title="Client A dashboard"
        description="Choose a company by its CIN to see its products, batches and codes."
      />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading your companies">
        {({ companies }) => (
          <>
            {companies.length === 0 ? (
              <EmptyState icon={<Buildings2Icon />}>
                {canAdd
                  ? 'No companies yet. Add your first company below with its CIN.'
                  : 'No companies yet. Ask an admin of your organisation to add one.'}
              </EmptyState>
            ) : (
              <CardSection title="Company">
                <SelectField
                  label="Company (CIN)"
                  value={selected}
                  onChange={(e) => setSelected(e.target.value)}
                  options={[
                    { value: '', label: 'Choose a company…' },
                    ...companies.map((c) => ({ value: c.id, label: `${c.cin} — ${c.name}` })),
                  ]}
                />
                {selected ? null : (
                  <p className="muted">Choose a company to see its products, batches and codes.</p>
                )}
              </CardSection>
            )}
            {selected ? <CompanyOverviewView key={selected} id={selected} /> : null}
            {canAdd ? (
              <CardSection title="Add company">
                <AddCompanyForm onAdded={added} />
              </CardSection>
            ) : null}
          </>
        )}
      </ApiResultView>
    </>
  );
}

import { CodeSelectorPage } from '@/features/codes/components/code-selector-page';
import { fetchCompanyOverview, useCompanies } from '@/features/companies/api/companies-api';

/** `/gme/codeDownload`: the codes feature's selector, fed client A's companies. */
export function Component() {
  const { result, reload } = useCompanies();
  const companies =
    result === null
      ? null
      : result.ok
        ? { ok: true as const, data: result.data.companies }
        : result;
  return (
    <CodeSelectorPage companies={companies} onRetry={reload} loadCatalogue={fetchCompanyOverview} />
  );
}

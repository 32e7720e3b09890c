import { ChartSquareIcon } from '@solar-icons/react/linear/chart-square';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { SelectField } from '@/components/ui/form-field';
import { LoadingBlock } from '@/components/ui/spinner';
import { Stat } from '@/components/ui/stat';
import { useApiResult } from '@/hooks/use-api-result';
import type { ApiResult } from '@/lib/api/call-api';
import { formatNumber } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { loadBrandScans } from '../api/brand-scans-api';
import { totalGenerated } from '../brand-scans';
import { DEFAULT_RANGE_DAYS, lastDays, type DateRange } from '../date-range';
import { ScanMap, WithSkeleton } from './lazy-parts';
import { RangeForm } from './range-form';
import { PlacesTable, TopCodesTable } from './scan-tables';
import './scan-analytics.css';

/** A brand a platform admin may look at: its clientId (the `company_id`) and its name. */
export interface Company {
  id: string;
  name: string;
}

export type LoadCompanies = () => Promise<ApiResult<Company[]>>;

function BrandScansView() {
  const brandscans = useAppStore((s) => s.brandscans);
  if (brandscans.status === 'loading') return <LoadingBlock label="Loading the brand’s scans…" />;
  if (brandscans.status === 'failed') return <ErrorAlert>{brandscans.error}</ErrorAlert>;
  const data = brandscans.data;
  if (brandscans.status !== 'succeeded' || !data) return null;
  const scans = data.productScans.reduce((sum, p) => sum + p.sum, 0);
  return (
    <>
      <div className="stats scan-stats">
        <Stat label="Scans">{formatNumber(scans)}</Stat>
        <Stat label="Codes generated">{formatNumber(totalGenerated(data))}</Stat>
        <Stat label="QR codes left in the plan">{formatNumber(data.qrCodesRemaining)}</Stat>
      </div>
      <CardSection title="Where codes were scanned">
        <WithSkeleton>
          <ScanMap places={data.locations} />
        </WithSkeleton>
        <PlacesTable places={data.locations} />
      </CardSection>
      <CardSection title="Most scanned codes">
        <TopCodesTable codes={data.scan} productName={() => null} />
      </CardSection>
    </>
  );
}

/**
 * `/` for a platform admin: scans belong to each brand, so the admin chooses
 * one (its clientId is the brand-scans call's `company_id`, spec §7) and sees
 * that brand's scans for the range.
 */
export function CompanyScans({ loadCompanies }: { loadCompanies: LoadCompanies }) {
  const { result, reload } = useApiResult(loadCompanies);
  const [companyId, setCompanyId] = useState('');
  const [range, setRange] = useState<DateRange>(() => lastDays(DEFAULT_RANGE_DAYS));

  useEffect(() => {
    if (companyId) void loadBrandScans(range, companyId);
  }, [range, companyId]);

  return (
    <CardSection
      className="section"
      title={
        <>
          <ChartSquareIcon aria-hidden="true" /> Scan analytics
        </>
      }
    >
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the brands…">
        {(companies) => (
          <>
            <div className="range-form">
              <SelectField
                label="Brand"
                value={companyId}
                onChange={(e) => setCompanyId(e.target.value)}
                options={[
                  { value: '', label: 'Choose a brand' },
                  ...companies.map((c) => ({ value: c.id, label: c.name })),
                ]}
              />
            </div>
            {companyId ? (
              <>
                <RangeForm range={range} onChange={setRange} />
                <BrandScansView />
              </>
            ) : (
              <p className="muted">
                Scans belong to each brand: choose one to see its scans. The admin dashboard lists
                the latest scans of every brand.
              </p>
            )}
          </>
        )}
      </ApiResultView>
    </CardSection>
  );
}

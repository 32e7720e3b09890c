import { useEffect } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { SelectField } from '@/components/ui/form-field';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { loadAdminScans } from '../api/admin-scans-api';
import type { AdminScan } from '../admin-scans';

/** What the table shows when the list is empty (spec §8, word for word). */
export const NO_SCANS = 'No scans data available.';

const VERDICTS: Record<string, { label: string; badge: string }> = {
  genuine: { label: 'Genuine', badge: 'badge--success' },
  suspicious: { label: 'Suspicious', badge: 'badge--warning' },
  not_recognised: { label: 'Not recognised', badge: 'badge--danger' },
};

const orDash = (text: string) => text || '—';

const SCAN_COLUMNS: readonly Column<AdminScan>[] = [
  { header: 'BrandId', cell: (s) => <code>{s.brandId}</code> },
  { header: 'BrandName', cell: (s) => orDash(s.brandName) },
  { header: 'Time', cell: (s) => formatDateTime(s.scannedAt) },
  { header: 'Product', cell: (s) => orDash(s.productName) },
  {
    header: 'Verdict',
    cell: (s) => {
      const verdict = VERDICTS[s.verdict];
      return (
        <span className={`badge ${verdict?.badge ?? ''}`}>
          {verdict?.label ?? orDash(s.verdict)}
        </span>
      );
    },
  },
  { header: 'Loc', cell: (s) => orDash(s.geolocation.loc) },
  { header: 'Country', cell: (s) => orDash(s.geolocation.country) },
  { header: 'Region', cell: (s) => orDash(s.geolocation.region) },
  { header: 'City', cell: (s) => orDash(s.geolocation.city) },
];

/**
 * The admin dashboard's latest scans (newest first, at most 200), of every
 * brand or of the brand chosen (the `adminScans` slice's `activeBrandId`).
 */
export function AdminScansSection({ brands }: { brands: readonly { id: string; name: string }[] }) {
  const adminScans = useAppStore((s) => s.adminScans);
  const setActiveBrandId = useAppStore((s) => s.setActiveBrandId);
  const brandId = adminScans.activeBrandId;

  useEffect(() => {
    void loadAdminScans(brandId);
  }, [brandId]);

  // A brand chosen earlier stays chosen even before the tenants list is back.
  const options = [
    { value: '', label: 'All brands' },
    ...brands.map((b) => ({ value: b.id, label: `${b.name} (${b.id})` })),
    ...(brandId && !brands.some((b) => b.id === brandId)
      ? [{ value: brandId, label: brandId }]
      : []),
  ];

  return (
    <CardSection title="Scans" className="section">
      <div className="inline-form">
        <SelectField
          label="Brand"
          value={brandId ?? ''}
          onChange={(e) => setActiveBrandId(e.target.value || null)}
          options={options}
        />
      </div>
      {adminScans.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadAdminScans(brandId)}>{adminScans.error}</ErrorAlert>
      ) : null}
      {adminScans.status === 'loading' || adminScans.status === 'idle' ? (
        <LoadingBlock label="Loading scans…" />
      ) : null}
      {adminScans.status === 'succeeded' ? (
        <DataTable
          label="Scans"
          columns={SCAN_COLUMNS}
          rows={adminScans.data}
          rowKey={(s) => s.id}
          empty={NO_SCANS}
        />
      ) : null}
    </CardSection>
  );
}

import { ChartSquareIcon } from '@solar-icons/react/linear/chart-square';
import { QrCodeIcon } from '@solar-icons/react/linear/qr-code';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { CardSection } from '@/components/ui/card-section';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock } from '@/components/ui/spinner';
import { Stat } from '@/components/ui/stat';
import { useApiResult } from '@/hooks/use-api-result';
import { formatNumber } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { loadBrandScans } from '../api/brand-scans-api';
import { fetchScanAnalytics } from '../api/scan-analytics-api';
import { totalGenerated } from '../brand-scans';
import { DEFAULT_RANGE_DAYS, lastDays, longDay, type DateRange } from '../date-range';
import type { ScanAnalyticsData, ScanTotals } from '../scan-analytics';
import {
  FiguresTable,
  FirstVsRepeatChart,
  ScanMap,
  ScansOverTimeChart,
  ScansPerProductChart,
  WithSkeleton,
} from './lazy-parts';
import { AudienceSections } from './audience-sections';
import { CodeHistoryModal } from './code-history-modal';
import { RangeForm } from './range-form';
import { ReviewsSection } from './reviews-section';
import { OwnScanRules } from './scan-rules';
import {
  DaysTable,
  FirstVsRepeatTable,
  PlacesTable,
  ProductsTable,
  TopCodesTable,
} from './scan-tables';
import './scan-analytics.css';

/** How many of the most-scanned codes show before "Show all". */
const TOP_CODES_SHOWN = 10;

function TotalsTiles({ totals }: { totals: ScanTotals }) {
  return (
    <div className="stats scan-stats" role="group" aria-label="Totals">
      <Stat label="Scans">{formatNumber(totals.scans)}</Stat>
      <Stat
        label="First scans"
        footer={<div className="stat__note">{formatNumber(totals.repeatScans)} repeat scans</div>}
      >
        {formatNumber(totals.firstScans)}
      </Stat>
      <Stat label="Genuine">{formatNumber(totals.genuine)}</Stat>
      <Stat label="Suspicious">{formatNumber(totals.suspicious)}</Stat>
      <Stat label="Not recognised">{formatNumber(totals.notRecognised)}</Stat>
      <Stat label="Bots" footer={<div className="stat__note">Left out of every other figure</div>}>
        {formatNumber(totals.bots)}
      </Stat>
    </div>
  );
}

/** What shows while the analytics load: grey blocks, never numbers. */
function AnalyticsSkeleton() {
  return (
    <div aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading scan analytics…
      </span>
      <div className="stats scan-stats" aria-hidden="true">
        {['Scans', 'First scans', 'Genuine', 'Suspicious', 'Not recognised', 'Bots'].map(
          (label) => (
            <div className="stat" key={label}>
              <div className="stat__label">{label}</div>
              <span className="skeleton skeleton--value" />
            </div>
          ),
        )}
      </div>
      <div className="analytics-grid" aria-hidden="true">
        <div className="card analytics-grid__wide">
          <span className="skeleton skeleton--chart" />
        </div>
      </div>
    </div>
  );
}

function MostScannedCodes({
  productName,
  onRetry,
}: {
  productName: (id: string) => string | null;
  onRetry: () => void;
}) {
  const brandscans = useAppStore((s) => s.brandscans);
  const [showAll, setShowAll] = useState(false);
  const [opened, setOpened] = useState<string | null>(null);
  const data = brandscans.data;
  return (
    <CardSection
      title={
        <>
          <QrCodeIcon aria-hidden="true" /> Most scanned codes
        </>
      }
    >
      <p className="muted">
        The codes scanned most since they were made, whatever the period. A code is flagged
        suspicious when more consumers scanned it, or from places farther apart, than your rules
        allow; open a code to see its scans.
      </p>
      {brandscans.status === 'failed' ? (
        <ErrorAlert onRetry={onRetry}>{brandscans.error}</ErrorAlert>
      ) : null}
      {brandscans.status === 'loading' || (brandscans.status === 'idle' && !data) ? (
        <LoadingBlock label="Loading the most scanned codes…" />
      ) : null}
      {brandscans.status === 'succeeded' && data ? (
        <>
          <div className="stats scan-stats">
            <Stat label="Codes generated">{formatNumber(totalGenerated(data))}</Stat>
            <Stat label="QR codes left in your plan">{formatNumber(data.qrCodesRemaining)}</Stat>
          </div>
          <TopCodesTable
            codes={showAll ? data.scan : data.scan.slice(0, TOP_CODES_SHOWN)}
            productName={productName}
            onOpen={setOpened}
          />
          <CodeHistoryModal id={opened} onClose={() => setOpened(null)} />
          {data.scan.length > TOP_CODES_SHOWN ? (
            <div className="form-actions form-actions--start">
              <button
                type="button"
                className="btn btn--ghost"
                aria-expanded={showAll}
                onClick={() => setShowAll((v) => !v)}
              >
                {showAll
                  ? `Show the top ${TOP_CODES_SHOWN}`
                  : `Show all ${formatNumber(data.scan.length)}`}
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </CardSection>
  );
}

function Charts({ data }: { data: ScanAnalyticsData }) {
  const { totals } = data;
  return (
    <div className="analytics-grid">
      <CardSection title="Scans over time">
        <WithSkeleton>
          <ScansOverTimeChart days={data.byDay} />
        </WithSkeleton>
        <FiguresTable>
          <DaysTable days={data.byDay} />
        </FiguresTable>
      </CardSection>
      <CardSection title="First and repeat scans">
        <WithSkeleton>
          <FirstVsRepeatChart first={totals.firstScans} repeat={totals.repeatScans} />
        </WithSkeleton>
        <FiguresTable>
          <FirstVsRepeatTable first={totals.firstScans} repeat={totals.repeatScans} />
        </FiguresTable>
      </CardSection>
      <div className="analytics-grid__wide">
        <CardSection title="Scans per product">
          <WithSkeleton>
            <ScansPerProductChart products={data.byProduct} />
          </WithSkeleton>
          <FiguresTable>
            <ProductsTable products={data.byProduct} />
          </FiguresTable>
        </CardSection>
      </div>
      <div className="analytics-grid__wide">
        <CardSection title="Where codes were scanned">
          <WithSkeleton>
            <ScanMap places={data.byPlace} />
          </WithSkeleton>
          <PlacesTable places={data.byPlace} />
        </CardSection>
      </div>
    </div>
  );
}

/** The analytics of one range (remounted for each range, so a new range starts from loading). */
function RangeAnalytics({ range }: { range: DateRange }) {
  const { result, reload } = useApiResult(() => fetchScanAnalytics(range));
  // The organisation's products, when loaded: they name the most scanned codes.
  const products = useAppStore((s) => s.products.data.products);
  if (result === null) return <AnalyticsSkeleton />;
  if (!result.ok) return <ErrorAlert onRetry={reload}>{result.message}</ErrorAlert>;
  const data = result.data;
  const names = new Map(data.byProduct.map((p) => [p.productId, p.productName]));
  for (const product of products) names.set(product.id, product.product_name);
  return (
    <>
      <TotalsTiles totals={data.totals} />
      {data.totals.scans === 0 ? (
        <EmptyState icon={<ChartSquareIcon />}>
          No scans yet between {longDay(data.range.from)} and {longDay(data.range.to)}. Scans appear
          here when consumers open your codes’ links.
        </EmptyState>
      ) : (
        <Charts data={data} />
      )}
      <div className="section">
        <MostScannedCodes
          productName={(id) => names.get(id) || null}
          onRetry={() => void loadBrandScans(range)}
        />
      </div>
    </>
  );
}

/**
 * The dashboard's scan analytics for a brand's staff (a client organisation's
 * dashboard does not show them: `hasScanAnalytics`): totals, scans
 * over time, per product, first against repeat, a world map and a table of
 * places, the most-scanned codes, consumer sessions and consumers for the
 * same range, then the consumers' reviews and the suspicious-scan rules.
 */
export function ScanAnalytics({
  loadProductNames,
}: {
  /** Loads the `products` slice, whose names label the most scanned codes (the route passes it). */
  loadProductNames?: () => Promise<void>;
}) {
  const [range, setRange] = useState<DateRange>(() => lastDays(DEFAULT_RANGE_DAYS));

  useEffect(() => {
    void loadBrandScans(range);
  }, [range]);

  useEffect(() => {
    if (loadProductNames && useAppStore.getState().products.status === 'idle') {
      void loadProductNames();
    }
  }, [loadProductNames]);

  return (
    <>
      <CardSection
        className="section"
        title={
          <>
            <ChartSquareIcon aria-hidden="true" /> Scan analytics
          </>
        }
      >
        <RangeForm range={range} onChange={setRange} />
        <RangeAnalytics key={`${range.from}/${range.to}`} range={range} />
        <AudienceSections range={range} />
      </CardSection>
      <ReviewsSection />
      <div className="section">
        <OwnScanRules />
      </div>
    </>
  );
}

/**
 * What a client organisation's dashboard says in place of the analytics:
 * scan analytics are kept for brands (the policy gives client organisations
 * no scan operation, so nothing is called).
 */
export function ScansForBrandsOnly() {
  return (
    <CardSection
      className="section"
      title={
        <>
          <ChartSquareIcon aria-hidden="true" /> Scan analytics
        </>
      }
    >
      <p>
        Scan analytics are kept for brands. Consumers who scan your codes still get the verdict and
        your batch data on the scan page.
      </p>
    </CardSection>
  );
}

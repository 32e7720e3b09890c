import { lazy, Suspense, type ReactNode } from 'react';

/**
 * The charts (chart.js) and the map (d3-geo and the world's outlines) are
 * loaded on demand, in chunks of their own, so the dashboard's first load
 * stays within the bundle budget (scripts/check-bundle.mjs).
 */
export const ScansOverTimeChart = lazy(() =>
  import('./scan-charts').then((m) => ({ default: m.ScansOverTimeChart })),
);
export const ScansPerProductChart = lazy(() =>
  import('./scan-charts').then((m) => ({ default: m.ScansPerProductChart })),
);
export const FirstVsRepeatChart = lazy(() =>
  import('./scan-charts').then((m) => ({ default: m.FirstVsRepeatChart })),
);
export const SessionsChart = lazy(() =>
  import('./scan-charts').then((m) => ({ default: m.SessionsChart })),
);
export const ConsumersChart = lazy(() =>
  import('./scan-charts').then((m) => ({ default: m.ConsumersChart })),
);
export const ScanMap = lazy(() => import('./scan-map').then((m) => ({ default: m.ScanMap })));

/** A grey block in the chart's place while its code loads. */
export function ChartSkeleton() {
  return <span className="skeleton skeleton--chart" aria-hidden="true" />;
}

export function WithSkeleton({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ChartSkeleton />}>{children}</Suspense>;
}

/** A chart's figures as a table, folded away under it (the chart's text alternative). */
export function FiguresTable({ children }: { children: ReactNode }) {
  return (
    <details className="chart-table">
      <summary>Show the figures as a table</summary>
      {children}
    </details>
  );
}

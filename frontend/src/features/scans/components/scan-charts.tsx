import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Bar, Doughnut, Line } from 'react-chartjs-2';
import { formatNumber } from '@/lib/format';
import type { ConsumerDay, SessionDay } from '../audience';
import { shortDay } from '../date-range';
import type { DayScans, ProductScans } from '../scan-analytics';
import { chartPalette, useDocumentTheme } from './chart-colors';

// Only what these charts draw, so the chunk stays small.
ChartJS.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** How many products the bar chart shows; the table under it lists them all. */
export const CHART_PRODUCTS = 10;

function truncate(text: string, max = 28): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function useColors() {
  // Re-read the palette when the theme changes (the component re-renders then).
  const theme = useDocumentTheme();
  return { theme, ...chartPalette() };
}

function axes(colors: ReturnType<typeof useColors>) {
  return {
    ticks: { color: colors.muted, precision: 0 },
    grid: { color: colors.border },
    border: { color: colors.border },
  };
}

/** The options of a chart of days: one tooltip per day, counts from zero. */
function perDayOptions(colors: ReturnType<typeof useColors>, stacked = false) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    interaction: { mode: 'index' as const, intersect: false },
    plugins: { legend: { labels: { color: colors.text } } },
    scales: {
      x: { ...axes(colors), stacked },
      y: { ...axes(colors), stacked, beginAtZero: true },
    },
  };
}

/** Scans per day over the range (a line chart; its table is the text alternative). */
export function ScansOverTimeChart({ days }: { days: readonly DayScans[] }) {
  const colors = useColors();
  const total = days.reduce((sum, d) => sum + d.scans, 0);
  return (
    <div className="chart chart--wide">
      <Line
        key={colors.theme}
        role="img"
        aria-label={`Line chart of scans per day, ${formatNumber(total)} scans from ${shortDay(days[0]?.day ?? '')} to ${shortDay(days[days.length - 1]?.day ?? '')}. The table below has the same figures.`}
        data={{
          labels: days.map((d) => shortDay(d.day)),
          datasets: [
            {
              label: 'Scans',
              data: days.map((d) => d.scans),
              borderColor: colors.primary,
              backgroundColor: colors.primary,
              pointRadius: days.length > 45 ? 0 : 2,
              tension: 0.25,
            },
            {
              label: 'Suspicious',
              data: days.map((d) => d.suspicious),
              borderColor: colors.warning,
              backgroundColor: colors.warning,
              pointRadius: days.length > 45 ? 0 : 2,
              tension: 0.25,
            },
          ],
        }}
        options={perDayOptions(colors)}
      />
    </div>
  );
}

/** Scans per product, the most scanned first (a horizontal bar chart). */
export function ScansPerProductChart({ products }: { products: readonly ProductScans[] }) {
  const colors = useColors();
  const shown = products.slice(0, CHART_PRODUCTS);
  return (
    <div className="chart" style={{ height: `${Math.max(160, shown.length * 34 + 40)}px` }}>
      <Bar
        key={colors.theme}
        role="img"
        aria-label={`Bar chart of scans per product: ${shown
          .map((p) => `${p.productName || 'Unnamed product'} ${formatNumber(p.scans)}`)
          .join(', ')}.`}
        data={{
          labels: shown.map((p) => truncate(p.productName || 'Unnamed product')),
          datasets: [
            {
              label: 'Scans',
              data: shown.map((p) => p.scans),
              backgroundColor: colors.primary,
              borderRadius: 4,
            },
          ],
        }}
        options={{
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          plugins: { legend: { display: false } },
          scales: { x: { ...axes(colors), beginAtZero: true }, y: axes(colors) },
        }}
      />
    </div>
  );
}

/** First scans against repeat scans (a doughnut). */
export function FirstVsRepeatChart({ first, repeat }: { first: number; repeat: number }) {
  const colors = useColors();
  return (
    <div className="chart chart--square">
      <Doughnut
        key={colors.theme}
        role="img"
        aria-label={`Doughnut chart: ${formatNumber(first)} first scans and ${formatNumber(repeat)} repeat scans.`}
        data={{
          labels: ['First scans', 'Repeat scans'],
          datasets: [
            {
              data: [first, repeat],
              backgroundColor: [colors.primary, colors.warning],
              borderColor: colors.surface,
            },
          ],
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          plugins: { legend: { position: 'bottom', labels: { color: colors.text } } },
        }}
      />
    </div>
  );
}

/** Consumer sessions per day, with their scans (a bar chart; its table is the text alternative). */
export function SessionsChart({ days }: { days: readonly SessionDay[] }) {
  const colors = useColors();
  const sessions = days.reduce((sum, d) => sum + d.sessions, 0);
  return (
    <div className="chart chart--wide">
      <Bar
        key={colors.theme}
        role="img"
        aria-label={`Bar chart of consumer sessions per day, ${formatNumber(sessions)} sessions from ${shortDay(days[0]?.day ?? '')} to ${shortDay(days[days.length - 1]?.day ?? '')}. The table below has the same figures.`}
        data={{
          labels: days.map((d) => shortDay(d.day)),
          datasets: [
            {
              label: 'Sessions',
              data: days.map((d) => d.sessions),
              backgroundColor: colors.primary,
              borderRadius: 3,
            },
            {
              label: 'Scans in sessions',
              data: days.map((d) => d.sessionScans),
              backgroundColor: colors.warning,
              borderRadius: 3,
            },
          ],
        }}
        options={perDayOptions(colors)}
      />
    </div>
  );
}

/** New and returning consumers per day (stacked bars: together, the day's consumers). */
export function ConsumersChart({ days }: { days: readonly ConsumerDay[] }) {
  const colors = useColors();
  const fresh = days.reduce((sum, d) => sum + d.newConsumers, 0);
  const returning = days.reduce((sum, d) => sum + d.returningConsumers, 0);
  return (
    <div className="chart chart--wide">
      <Bar
        key={colors.theme}
        role="img"
        aria-label={`Stacked bar chart of consumers per day from ${shortDay(days[0]?.day ?? '')} to ${shortDay(days[days.length - 1]?.day ?? '')}: ${formatNumber(fresh)} new and ${formatNumber(returning)} returning, each consumer counted on every day they scanned. The table below has the same figures.`}
        data={{
          labels: days.map((d) => shortDay(d.day)),
          datasets: [
            {
              label: 'New consumers',
              data: days.map((d) => d.newConsumers),
              backgroundColor: colors.primary,
              stack: 'consumers',
            },
            {
              label: 'Returning consumers',
              data: days.map((d) => d.returningConsumers),
              backgroundColor: colors.success,
              stack: 'consumers',
            },
          ],
        }}
        options={perDayOptions(colors, true)}
      />
    </div>
  );
}

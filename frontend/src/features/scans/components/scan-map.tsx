import { geoEqualEarth, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Bundled with the map's chunk: the map works offline and asks no other server.
import countries110m from 'world-atlas/countries-110m.json';
import { useId, useMemo } from 'react';
import { formatNumber } from '@/lib/format';
import { mappable, placeLabel, type Place } from '../places';
import { chartPalette, useDocumentTheme } from './chart-colors';

const WIDTH = 960;
const HEIGHT = 470;

const world = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
const countryShapes = feature(world, world.objects.countries);
const projection = geoEqualEarth().fitExtent(
  [
    [4, 4],
    [WIDTH - 4, HEIGHT - 4],
  ],
  countryShapes,
);
const toPath = geoPath(projection);
/** Each country's outline, drawn once. */
const countryPaths = countryShapes.features
  .map((shape, index) => ({ key: String(shape.id ?? index), d: toPath(shape) ?? '' }))
  .filter((shape) => shape.d !== '');

/** A point's radius: its area grows with its scans, from 3 to 18 px of the 960 px wide map. */
export function pointRadius(scans: number, most: number): number {
  if (most <= 0 || scans <= 0) return 3;
  return 3 + 15 * Math.sqrt(scans / most);
}

/**
 * A world map with a point per place, sized by its scans. Places without
 * coordinates are left out (the table beside it lists every place, "Unknown"
 * included, and is the map's text alternative).
 */
export function ScanMap({ places }: { places: readonly Place[] }) {
  const theme = useDocumentTheme();
  const colors = useMemo(() => ({ theme, ...chartPalette() }), [theme]);
  const titleId = useId();
  const descId = useId();
  const points = mappable(places)
    .map((place): { place: Place; xy: [number, number] | null } => ({
      place,
      xy: projection([place.lon, place.lat]),
    }))
    .filter((p): p is { place: Place; xy: [number, number] } => p.xy !== null)
    // Small points last, so they stay visible on top of large ones.
    .sort((a, b) => b.place.scans - a.place.scans);
  const most = points[0]?.place.scans ?? 0;
  const total = points.reduce((sum, p) => sum + p.place.scans, 0);

  return (
    <figure className="scan-map">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
      >
        <title id={titleId}>World map of scans</title>
        <desc id={descId}>
          {points.length === 0
            ? 'No scan in this range has a known location.'
            : `${formatNumber(points.length)} ${points.length === 1 ? 'place' : 'places'} with ${formatNumber(total)} scans; the table of places lists them.`}
        </desc>
        <g fill={colors.surface2} stroke={colors.borderStrong} strokeWidth={0.5}>
          {countryPaths.map((shape) => (
            <path key={shape.key} d={shape.d} />
          ))}
        </g>
        <g fill={colors.primary} fillOpacity={0.55} stroke={colors.primary} strokeWidth={1}>
          {points.map(({ place, xy }) => (
            <circle
              key={`${place.country}|${place.region}|${place.city}|${xy.join(',')}`}
              cx={xy[0]}
              cy={xy[1]}
              r={pointRadius(place.scans, most)}
              data-scans={place.scans}
            >
              <title>{`${placeLabel(place)}: ${formatNumber(place.scans)} ${place.scans === 1 ? 'scan' : 'scans'}`}</title>
            </circle>
          ))}
        </g>
      </svg>
    </figure>
  );
}

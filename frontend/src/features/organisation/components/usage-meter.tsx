import { formatNumber } from '@/lib/format';

/** `used` of `limit` as text and a bar; no bar when there is no limit. */
export function UsageMeter({
  used,
  limit,
  label,
}: {
  used: number;
  limit: number | null | undefined;
  label: string;
}) {
  if (limit === null || limit === undefined || limit <= 0) {
    return <span>{formatNumber(used)} (no limit)</span>;
  }
  const percent = Math.min(100, Math.round((used / limit) * 100));
  return (
    <div>
      <div
        className="meter"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        aria-valuetext={`${used} of ${limit}`}
      >
        <div
          className={`meter__bar ${percent >= 100 ? 'meter__bar--full' : ''}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

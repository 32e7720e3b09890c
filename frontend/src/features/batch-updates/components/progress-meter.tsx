import { percent } from '../batch-updates';

/**
 * A labelled progress bar: a `progressbar` whose value is the percent done
 * and whose value text says the counts, with the counts written below it.
 */
export function ProgressMeter({
  label,
  done,
  total,
  text,
}: {
  label: string;
  done: number;
  total: number;
  text: string;
}) {
  const value = percent(done, total);
  return (
    <div className="batch-progress">
      <div className="batch-progress__label">
        <span>{label}</span>
        <span className="muted">{value}%</span>
      </div>
      <div
        className="meter"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%: ${text}`}
      >
        <div className="meter__bar" style={{ width: `${value}%` }} />
      </div>
      <div className="muted">{text}</div>
    </div>
  );
}

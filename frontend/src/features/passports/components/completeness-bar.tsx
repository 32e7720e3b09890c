/** A passport's completeness: a bar and its percentage (green when complete: that is good). */
export function CompletenessBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="completeness">
      <div
        className="meter"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}% complete`}
      >
        <div
          className={`meter__bar ${value >= 100 ? 'meter__bar--complete' : ''}`}
          style={{ width: `${value}%` }}
        />
      </div>
      <span>{value}%</span>
    </div>
  );
}

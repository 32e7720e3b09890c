/** Full-screen "loading" while the app restores the session. */
export function Splash({ label = 'Loading brandops…' }: { label?: string }) {
  return (
    <div className="splash" role="status" aria-live="polite">
      <div>
        <span className="spinner" aria-hidden="true" /> {label}
      </div>
    </div>
  );
}

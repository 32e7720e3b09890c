import { FailurePage } from './failure-page';

/** The top-level error screen (spec §2): shown when rendering fails. */
export function ErrorScreen() {
  return (
    <FailurePage
      title="Sorry.. there was an error"
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => window.location.reload()}
          >
            Reload the page
          </button>
          <a className="btn btn--secondary" href="/">
            Go to the dashboard
          </a>
        </>
      }
    >
      <p>
        Something went wrong while showing this page. Reloading usually helps; if it keeps
        happening, tell your administrator what you were doing.
      </p>
    </FailurePage>
  );
}

import { LockKeyholeMinimalisticIcon } from '@solar-icons/react/linear/lock-keyhole-minimalistic';
import { Link, useNavigate } from 'react-router';
import { StatusPage } from '@/components/errors/status-page';
import { paths } from '@/config/paths';
import { signOut } from '@/features/auth/api/auth-api';
import { useAppStore } from '@/stores/app-store';

/** Shown when the user's client or role may not open the page (spec §2, §6). */
export function Component() {
  const navigate = useNavigate();
  const signedIn = useAppStore((s) => s.auth.csrfToken !== null);
  return (
    <StatusPage
      code="Access denied"
      icon={<LockKeyholeMinimalisticIcon />}
      title="You do not have access to this page"
      actions={
        signedIn ? (
          <>
            <Link className="btn btn--primary" to={paths.home.href()}>
              Go to the dashboard
            </Link>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={async () => {
                await signOut();
                navigate(paths.auth.login.href(), { replace: true });
              }}
            >
              Sign in as someone else
            </button>
          </>
        ) : (
          <Link className="btn btn--primary" to={paths.auth.login.href()}>
            Sign in
          </Link>
        )
      }
    >
      <p>
        Your role or organisation does not include this page. If you need it, ask your
        organisation’s administrator.
      </p>
    </StatusPage>
  );
}

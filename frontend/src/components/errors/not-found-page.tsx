import { MapPointWaveIcon } from '@solar-icons/react/linear/map-point-wave';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { StatusPage } from './status-page';

/** `/auth/404` and `/404`: every unknown path ends here. */
export function NotFoundPage() {
  return (
    <StatusPage
      code="Error 404"
      icon={<MapPointWaveIcon />}
      title="Page not found"
      actions={
        <Link className="btn btn--primary" to={paths.home.href()}>
          Go to the dashboard
        </Link>
      }
    >
      <p>
        The page you asked for does not exist. Check the address, or start again from the dashboard.
      </p>
    </StatusPage>
  );
}

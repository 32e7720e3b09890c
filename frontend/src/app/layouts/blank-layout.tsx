import { Outlet } from 'react-router';

/** Login and status pages: no sidebar, centred. */
export function BlankLayout() {
  return (
    <div className="blank">
      <Outlet />
    </div>
  );
}

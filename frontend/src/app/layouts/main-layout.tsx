import { useEffect, useId, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { Sidebar } from './sidebar';
import { Topbar } from './topbar';

/** Sidebar, header and the page. The sidebar turns into a drawer on narrow screens. */
export function MainLayout() {
  const navId = useId();
  const [navOpen, setNavOpen] = useState(false);
  const navigation = useNavigation();
  const location = useLocation();

  useEffect(() => {
    if (!navOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setNavOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navOpen]);

  // A new page starts at the top.
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [location.pathname]);

  return (
    <div className={`shell ${navOpen ? 'shell--nav-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {navigation.state === 'loading' ? (
        <div className="route-progress" aria-hidden="true" />
      ) : null}
      <Sidebar id={navId} onNavigate={() => setNavOpen(false)} />
      <button
        type="button"
        className="sidebar-backdrop"
        aria-label="Close menu"
        tabIndex={-1}
        onClick={() => setNavOpen(false)}
      />
      <div className="main-col">
        <Topbar navId={navId} navOpen={navOpen} onToggleNav={() => setNavOpen((o) => !o)} />
        <main className="content" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

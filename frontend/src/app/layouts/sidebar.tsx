import { NavLink } from 'react-router';
import { navigation, splitNavigation, type UnavailableItem } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useCanOpen, useHasModule } from '@/hooks/use-access';
import { useAppStore } from '@/stores/app-store';

const REASON: Record<UnavailableItem['reason'], string> = {
  planned: 'Coming soon',
  'not-in-plan': 'Not in your plan',
};

/** The sidebar's entries for the signed-in user: working pages, and the others apart. */
export function useSidebarEntries() {
  const canOpen = useCanOpen();
  const hasModule = useHasModule();
  const isPlatformAdmin = useAppStore((s) => s.auth.user?.role === 'platform_admin');
  return splitNavigation(navigation, { canOpen, hasModule, isPlatformAdmin });
}

/**
 * The sidebar: the working pages the signed-in user may open, by section;
 * below them, collapsed and apart, the pages they may open that do not work
 * for them yet (a later issue builds them, or the plan lacks their module).
 */
export function Sidebar({ id, onNavigate }: { id: string; onNavigate: () => void }) {
  const { working, unavailable } = useSidebarEntries();

  return (
    <aside className="sidebar" id={id}>
      <NavLink to={paths.home.href()} className="sidebar__brand" onClick={onNavigate}>
        <span className="brand-mark" aria-hidden="true">
          b
        </span>
        brandops
      </NavLink>
      <nav className="nav" aria-label="Main">
        {working.map((section) => {
          const headingId = `nav-${section.heading.toLowerCase().replace(/\W+/g, '-')}`;
          return (
            <div className="nav__section" key={section.heading}>
              <div className="nav__heading" id={headingId}>
                {section.heading}
              </div>
              <ul className="nav__list" aria-labelledby={headingId}>
                {section.items.map(({ label, href, icon: Icon, end }) => (
                  <li key={href}>
                    <NavLink to={href} end={end} className="nav__link" onClick={onNavigate}>
                      <Icon />
                      <span>{label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      {unavailable.length > 0 ? (
        <details className="nav nav__unavailable" data-testid="nav-unavailable">
          <summary className="nav__heading nav__summary">
            Coming soon or switched off ({unavailable.length})
          </summary>
          <nav aria-label="Not available yet">
            <ul className="nav__list">
              {unavailable.map(({ label, href, icon: Icon, end, reason }) => (
                <li key={href}>
                  <NavLink
                    to={href}
                    end={end}
                    className="nav__link nav__link--muted"
                    onClick={onNavigate}
                  >
                    <Icon />
                    <span>{label}</span>
                    <span className="nav__tag">{REASON[reason]}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </details>
      ) : null}
    </aside>
  );
}

import { NavLink } from 'react-router';
import { navigation } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useCanOpen, useHasModule } from '@/hooks/use-access';

/** The sidebar: only the pages the signed-in user may open, of the modules their plan has. */
export function Sidebar({ id, onNavigate }: { id: string; onNavigate: () => void }) {
  const canOpen = useCanOpen();
  const hasModule = useHasModule();
  const sections = navigation
    .map((section) => ({
      ...section,
      items: section.items.filter(
        (item) => canOpen(item.path, item.clientArea) && hasModule(item.module),
      ),
    }))
    .filter((section) => section.items.length > 0);

  return (
    <aside className="sidebar" id={id}>
      <NavLink to={paths.home.href()} className="sidebar__brand" onClick={onNavigate}>
        <span className="brand-mark" aria-hidden="true">
          b
        </span>
        brandops
      </NavLink>
      <nav className="nav" aria-label="Main">
        {sections.map((section) => {
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
    </aside>
  );
}

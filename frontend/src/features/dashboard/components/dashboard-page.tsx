import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { navigation } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useCanOpen, useHasModule } from '@/hooks/use-access';
import { roleLabel } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/**
 * `/`: the scan analytics (the scans feature's section, passed in by the
 * route module, since features do not import each other) and shortcuts to
 * what this user may open.
 */
export function DashboardPage({ analytics }: { analytics?: ReactNode }) {
  const user = useAppStore((s) => s.auth.user);
  const canOpen = useCanOpen();
  const hasModule = useHasModule();
  const shortcuts = navigation
    .flatMap((section) => section.items)
    .filter(
      (item) =>
        item.href !== paths.home.href() &&
        canOpen(item.path, item.clientArea) &&
        hasModule(item.module),
    );
  const firstName = user?.name.split(/\s+/)[0] ?? '';

  return (
    <>
      <PageHeader
        title={`${greeting(new Date())}${firstName ? `, ${firstName}` : ''}`}
        description={
          user
            ? `Signed in as ${roleLabel(user.role)}${user.clientId ? ` at ${user.clientId}` : ''}.`
            : undefined
        }
      />
      {analytics}
      <CardSection title="Go to" className="section">
        <div className="card-grid">
          {shortcuts.map(({ label, href, icon: Icon }) => (
            <Link key={href} to={href} className="card card--link">
              <span className="card__icon" aria-hidden="true">
                <Icon />
              </span>
              <span>
                <strong>{label}</strong>
              </span>
            </Link>
          ))}
        </div>
      </CardSection>
    </>
  );
}

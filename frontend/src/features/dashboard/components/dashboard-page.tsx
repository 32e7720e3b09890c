import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { navigation, splitNavigation } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useCanOpen, useHasModule } from '@/hooks/use-access';
import { roleLabel } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { GetStartedChecklist } from './get-started';

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** "Signed in as Admin at Acme Brands." (the organisation's name, as text). */
function signedInAs(user: { role: Parameters<typeof roleLabel>[0]; organisationName?: string }) {
  const at = user.organisationName ? ` at ${user.organisationName}` : '';
  return `Signed in as ${roleLabel(user.role)}${at}.`;
}

/**
 * `/`: an organisation's "Get started" checklist, the scan analytics (the
 * scans feature's section, passed in by the route module, since features do
 * not import each other) and shortcuts to the working pages this user may
 * open (pages not available yet are only in the sidebar's group apart).
 */
export function DashboardPage({ analytics }: { analytics?: ReactNode }) {
  const user = useAppStore((s) => s.auth.user);
  const canOpen = useCanOpen();
  const hasModule = useHasModule();
  const shortcuts = splitNavigation(navigation, {
    canOpen,
    hasModule,
    isPlatformAdmin: user?.role === 'platform_admin',
  })
    .working.flatMap((section) => section.items)
    .filter((item) => item.href !== paths.home.href());
  const firstName = user?.name.split(/\s+/)[0] ?? '';

  return (
    <>
      <PageHeader
        title={`${greeting(new Date())}${firstName ? `, ${firstName}` : ''}`}
        description={user ? signedInAs(user) : undefined}
      />
      {user?.clientId ? <GetStartedChecklist /> : null}
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

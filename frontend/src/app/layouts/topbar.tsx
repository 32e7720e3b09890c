import { HamburgerMenuIcon } from '@solar-icons/react/linear/hamburger-menu';
import { Logout2Icon } from '@solar-icons/react/linear/logout-2';
import { MoonIcon } from '@solar-icons/react/linear/moon';
import { Sun2Icon } from '@solar-icons/react/linear/sun-2';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { paths } from '@/config/paths';
import { signOut } from '@/features/auth/api/auth-api';
import { savePreferences } from '@/features/settings/api/preferences-api';
import { useCanOpen } from '@/hooks/use-access';
import { useResolvedTheme } from '@/hooks/use-theme';
import { roleLabel } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';

interface TopbarProps {
  navId: string;
  navOpen: boolean;
  onToggleNav: () => void;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [name[0]];
  return letters.join('').toUpperCase();
}

export function Topbar({ navId, navOpen, onToggleNav }: TopbarProps) {
  const navigate = useNavigate();
  const user = useAppStore((s) => s.auth.user);
  const preferences = useAppStore((s) => s.auth.preferences);
  const theme = useResolvedTheme();
  // Preferences are saved with the same permission as the Settings page;
  // without it the theme follows the device.
  const canSaveTheme = useCanOpen()(paths.settings.path);
  const [signingOut, setSigningOut] = useState(false);
  const nextTheme = theme === 'dark' ? 'light' : 'dark';

  async function onToggleTheme() {
    const result = await savePreferences({
      theme: nextTheme,
      landingPage: preferences?.landingPage ?? paths.home.href(),
    });
    if (!result.ok) toast.error(result.message);
  }

  async function onSignOut() {
    setSigningOut(true);
    await signOut();
    navigate(paths.auth.login.href(), { replace: true });
  }

  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-btn topbar__menu"
        aria-label="Menu"
        aria-controls={navId}
        aria-expanded={navOpen}
        onClick={onToggleNav}
      >
        <HamburgerMenuIcon />
      </button>
      <div className="topbar__spacer" />
      {canSaveTheme ? (
        <button
          type="button"
          className="icon-btn"
          aria-label={`Switch to ${nextTheme} theme`}
          title={`Switch to ${nextTheme} theme`}
          onClick={onToggleTheme}
        >
          {theme === 'dark' ? <Sun2Icon /> : <MoonIcon />}
        </button>
      ) : null}
      {user ? (
        <div className="topbar__user">
          <span className="avatar" aria-hidden="true">
            {initials(user.name || user.email)}
          </span>
          <span className="topbar__who">
            <span className="topbar__name" data-testid="current-user-name">
              {user.name}
            </span>
            <span className="topbar__role">{roleLabel(user.role)}</span>
          </span>
        </div>
      ) : null}
      <button
        type="button"
        className="btn btn--ghost btn--signout"
        // On phones only the icon shows; the name stays.
        aria-label="Sign out"
        onClick={onSignOut}
        disabled={signingOut}
      >
        <Logout2Icon />
        <span>Sign out</span>
      </button>
    </header>
  );
}

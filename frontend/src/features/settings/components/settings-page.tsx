import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ChoiceField, type Choice } from '@/components/ui/choice-field';
import { FormActions } from '@/components/ui/form-actions';
import { SelectField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { navigation } from '@/config/navigation';
import { paths } from '@/config/paths';
import { useCanOpen } from '@/hooks/use-access';
import type { Theme } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { savePreferences } from '../api/preferences-api';

const THEMES: readonly Choice<Theme>[] = [
  { value: 'light', label: 'Light', hint: 'Dark text on a light background.' },
  { value: 'dark', label: 'Dark', hint: 'Light text on a dark background; easier at night.' },
  { value: 'system', label: 'System', hint: 'Follow your device’s setting.' },
];

/** `/Settings`: personal preferences, kept on the server so they follow the user. */
export function SettingsPage() {
  const saved = useAppStore((s) => s.auth.preferences);
  const canOpen = useCanOpen();
  const [theme, setTheme] = useState<Theme>(saved?.theme ?? 'system');
  const [landingPage, setLandingPage] = useState(saved?.landingPage ?? paths.home.href());
  const [busy, setBusy] = useState(false);

  const landingOptions = navigation
    .flatMap((section) => section.items)
    .filter((item) => !item.clientArea && canOpen(item.path))
    .map((item) => ({ value: item.href, label: item.label }));
  if (!landingOptions.some((o) => o.value === landingPage)) {
    landingOptions.unshift({ value: landingPage, label: landingPage });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const result = await savePreferences({ theme, landingPage });
    setBusy(false);
    if (result.ok) toast.success('Settings saved');
    else toast.error(result.message);
  }

  return (
    <>
      <PageHeader title="Settings" description="How brandops looks and where it opens for you." />
      <form className="card" onSubmit={onSubmit} aria-label="Settings">
        <ChoiceField
          label="Theme"
          name="theme"
          options={THEMES}
          value={theme}
          onChange={setTheme}
        />
        <SelectField
          label="Landing page"
          hint="The page you see first after signing in."
          value={landingPage}
          onChange={(e) => setLandingPage(e.target.value)}
          options={landingOptions}
        />
        <FormActions busy={busy} submitLabel="Save settings" />
      </form>
    </>
  );
}

import { ConfigurationPage } from '@/features/organisation/components/configuration-page';
import { hasScanAnalytics } from '@/features/scans/access';
import { OwnScanRules } from '@/features/scans/components/scan-rules';
import { useHasModule } from '@/hooks/use-access';
import { useAppStore } from '@/stores/app-store';

/**
 * `/configuration`: the organisation's settings; a brand with scans also sees
 * (and its admins change) the suspicious-scan rules, with what they mean.
 */
export function Component() {
  const user = useAppStore((s) => s.auth.user);
  const hasModule = useHasModule();
  const scanRules = hasScanAnalytics(user) && hasModule('scans') ? <OwnScanRules /> : null;
  return <ConfigurationPage scanRules={scanRules} />;
}

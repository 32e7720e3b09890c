import { ShieldCheckIcon } from '@solar-icons/react/linear/shield-check';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { FormActions } from '@/components/ui/form-actions';
import { TextField } from '@/components/ui/form-field';
import { useForm, type FieldErrors } from '@/hooks/use-form';
import { formatNumber } from '@/lib/format';
import type { ApiResult } from '@/lib/api/call-api';
import { useApiResult } from '@/hooks/use-api-result';
import { useAppStore } from '@/stores/app-store';
import { canChangeScanRules } from '../access';
import { fetchScanSettings, saveScanSettings, type ScanSettings } from '../api/scan-analytics-api';
import { scanMessages } from '../messages';

/** The server's ranges (PUT /api/scan-settings), checked before sending. */
export const RULE_LIMITS = {
  suspicious_scan_count: {
    label: 'Different consumers per code',
    min: 1,
    max: 1000,
    unit: 'consumers',
  },
  suspicious_distance_km: {
    label: 'Distance between two consumers’ scans (km)',
    min: 1,
    max: 20000,
    unit: 'km',
  },
  suspicious_window_hours: { label: 'Within (hours)', min: 1, max: 720, unit: 'hours' },
} as const;

type RuleName = keyof typeof RULE_LIMITS;
type RuleValues = Record<RuleName, string>;
const RULES = Object.keys(RULE_LIMITS) as RuleName[];

export function validateRules(values: RuleValues): FieldErrors<RuleValues> {
  const errors: FieldErrors<RuleValues> = {};
  for (const name of RULES) {
    const { min, max } = RULE_LIMITS[name];
    const text = values[name].trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || n > max) {
      errors[name] = `Enter a whole number from ${formatNumber(min)} to ${formatNumber(max)}.`;
    }
  }
  return errors;
}

/** What the rules mean, with the organisation's numbers. */
export function describeRules(settings: ScanSettings): string {
  return `A code turns suspicious when more than ${formatNumber(settings.suspicious_scan_count)} different consumers scan it, or when two different consumers scan it more than ${formatNumber(settings.suspicious_distance_km)} km apart within ${formatNumber(settings.suspicious_window_hours)} hours. Once suspicious, it stays so.`;
}

/** Who counts as one consumer: the same text on the dashboard and in /configuration. */
export const CONSUMER_RULE =
  'Repeat scans by the same consumer never make a code suspicious. A consumer is the anonymous cookie the scan page keeps on their phone or computer; a scan without it (a first visit, or cookies refused) counts as the consumer of its town when the town is known, otherwise as a new consumer.';

function RulesForm({
  settings,
  onSaved,
}: {
  settings: ScanSettings;
  onSaved: (settings: ScanSettings) => void;
}) {
  const form = useForm<RuleValues>(
    {
      suspicious_scan_count: String(settings.suspicious_scan_count),
      suspicious_distance_km: String(settings.suspicious_distance_km),
      suspicious_window_hours: String(settings.suspicious_window_hours),
    },
    { clearErrorOnChange: true },
  );
  const send = async (values: RuleValues) => {
    const result = await saveScanSettings({
      suspicious_scan_count: Number(values.suspicious_scan_count),
      suspicious_distance_km: Number(values.suspicious_distance_km),
      suspicious_window_hours: Number(values.suspicious_window_hours),
    });
    if (!result.ok) return result.message;
    onSaved(result.data);
    toast.success(scanMessages.settingsSaved);
    return null;
  };
  return (
    <form
      className="rules-form"
      aria-label="Suspicious-scan rules"
      onSubmit={(e) => void form.onSubmit(validateRules, send)(e)}
      noValidate
    >
      {RULES.map((name) => (
        <TextField
          key={name}
          label={RULE_LIMITS[name].label}
          inputMode="numeric"
          hint={`${formatNumber(RULE_LIMITS[name].min)} to ${formatNumber(RULE_LIMITS[name].max)}.`}
          {...form.field(name)}
        />
      ))}
      {form.serverError ? <ErrorAlert>{form.serverError}</ErrorAlert> : null}
      <FormActions busy={form.busy} submitLabel="Save rules" />
    </form>
  );
}

/**
 * When a scan counts as suspicious: read by everyone on the dashboard, changed
 * by admins. `result` is the page's `GET /api/scan-settings`.
 */
export function ScanRules({
  canChange,
  result,
  reload,
  onSaved,
}: {
  canChange: boolean;
  result: ApiResult<ScanSettings> | null;
  reload: () => void;
  onSaved: (settings: ScanSettings) => void;
}) {
  return (
    <CardSection
      title={
        <>
          <ShieldCheckIcon aria-hidden="true" /> Suspicious-scan rules
        </>
      }
    >
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the rules…">
        {(settings) => (
          <>
            <p className="rules-summary">{describeRules(settings)}</p>
            <p className="muted">{CONSUMER_RULE}</p>
            {canChange ? <RulesForm settings={settings} onSaved={onSaved} /> : null}
          </>
        )}
      </ApiResultView>
    </CardSection>
  );
}

/** The organisation's own rules, loaded here: on the dashboard and in `/configuration`. */
export function OwnScanRules() {
  const role = useAppStore((s) => s.auth.user?.role);
  const settings = useApiResult(fetchScanSettings);
  return (
    <ScanRules
      canChange={canChangeScanRules(role)}
      result={settings.result}
      reload={settings.reload}
      onSaved={(saved) => settings.update(() => saved)}
    />
  );
}

import { callApi } from '@/lib/api/call-api';
import { useAppStore } from '@/stores/app-store';
import { toBrandScans } from '../brand-scans';
import type { DateRange } from '../date-range';
import { brandScansFailureMessage } from '../messages';

/**
 * Loads the brand's scans for `range` into the `brandscans` slice (spec §7
 * `GET /brand-scans`). A platform admin names the brand with `companyId`
 * (its clientId); without it the server answers 400 'company_id is required',
 * which the slice keeps as its error (spec §8). Only the latest load's answer
 * is kept.
 */
let latest = 0;

export async function loadBrandScans(range: DateRange, companyId?: string): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latest;
  startLoading('brandscans');
  const result = await callApi((api) =>
    api.GET('/api/brand-scans', {
      params: {
        query: { from: range.from, to: range.to, ...(companyId ? { company_id: companyId } : {}) },
      },
    }),
  );
  // A later load (another range or company) has started: its answer is the one to keep.
  if (request !== latest) return;
  if (result.ok) loadSucceeded('brandscans', toBrandScans(result.data.data));
  else loadFailed('brandscans', brandScansFailureMessage(result));
}

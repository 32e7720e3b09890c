import { callApi } from '@/lib/api/call-api';
import { useAppStore } from '@/stores/app-store';
import { toAdminScans } from '../admin-scans';

export const ADMIN_SCANS_FAILED = 'The scans could not be loaded.';

/**
 * Loads the latest scans (newest first, at most 200) into the `adminScans`
 * slice: every brand's, or only those of `brandId`. Only the latest load's
 * answer is kept.
 */
let latest = 0;

export async function loadAdminScans(brandId: string | null): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latest;
  startLoading('adminScans');
  const result = await callApi(
    (api) => api.GET('/api/admin/scans', { params: { query: brandId ? { brandId } : {} } }),
    ADMIN_SCANS_FAILED,
  );
  // The filter changed while this one loaded: the later answer is the one to keep.
  if (request !== latest) return;
  if (result.ok) loadSucceeded('adminScans', toAdminScans(result.data));
  else loadFailed('adminScans', result.message);
}

import { callApi } from '@/lib/api/call-api';
import { useAppStore } from '@/stores/app-store';
import { toConsumersData, toSessionsData } from '../audience';
import type { DateRange } from '../date-range';
import { scanMessages } from '../messages';

let latestSessions = 0;
let latestConsumers = 0;

/**
 * Loads consumer sessions for `range` into the `sessions` slice (spec §7
 * sessions-data). Only the latest load's answer is kept.
 */
export async function loadSessions(range: DateRange): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latestSessions;
  startLoading('sessions');
  const result = await callApi(
    (api) => api.GET('/api/sessions-data', { params: { query: range } }),
    scanMessages.sessionsFailed,
  );
  if (request !== latestSessions) return;
  if (result.ok) loadSucceeded('sessions', toSessionsData(result.data.data, range));
  else loadFailed('sessions', result.message);
}

/**
 * Loads unique consumers per day for `range` into the `consumers` slice (the
 * spec's users-data call, §7; why the slice is not `users`:
 * `store/consumers-slice.ts`). Only the latest load's answer is kept.
 */
export async function loadConsumers(range: DateRange): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed } = useAppStore.getState();
  const request = ++latestConsumers;
  startLoading('consumers');
  const result = await callApi(
    (api) => api.GET('/api/users-data', { params: { query: range } }),
    scanMessages.consumersFailed,
  );
  if (request !== latestConsumers) return;
  if (result.ok) loadSucceeded('consumers', toConsumersData(result.data.data, range));
  else loadFailed('consumers', result.message);
}

import { formatNumber } from '@/lib/format';

/** Every text the codes section shows for an outcome, in one place. */
export const codeMessages = {
  notLoaded: 'The code jobs could not be loaded.',
  jobNotLoaded: 'The code job could not be loaded.',
  notStarted: 'The code job could not be started. Please try again.',
  started: (quantity: number) =>
    `Code job started: ${formatNumber(quantity)} ${quantity === 1 ? 'code is' : 'codes are'} being generated.`,
  notRefreshed: (reason: string) =>
    `The progress could not be refreshed: ${reason} Trying again shortly.`,
  lotsNotLoaded: 'Your batches could not be loaded.',
  summaryNotLoaded: 'The codes of this selection could not be counted.',
  counting: 'Counting the codes of this selection…',
  downloadQueued: 'The download starts as soon as the count is ready.',
  noLots: 'No batches yet: codes generated without a lot number are downloaded by date range.',
  moreLots: (listed: number) =>
    `Only the ${formatNumber(listed)} batches with the newest jobs are listed. To download the codes of older batches, choose a date range.`,
} as const;

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
} as const;

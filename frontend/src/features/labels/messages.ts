import { formatNumber } from '@/lib/format';

/** `1 label`, `10,000 labels`. */
export function labelsText(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'label' : 'labels'}`;
}

/** Every text the label pages show for an outcome, in one place. */
export const labelMessages = {
  templatesNotLoaded: 'The label templates could not be loaded.',
  templateNotSaved: 'The template could not be saved. Please try again.',
  templateCreated: (name: string) => `Template “${name}” saved.`,
  templateUpdated: (name: string) => `Template “${name}” updated.`,
  templateDeleted: (name: string) => `Template “${name}” deleted.`,
  templateNotDeleted: 'The template could not be deleted. Please try again.',
  confirmDelete: 'Delete this label template?',
  previewFailed: 'The preview could not be drawn. Please try again.',
  codeJobsNotLoaded: 'The code jobs could not be loaded.',
  printJobsNotLoaded: 'The print jobs could not be loaded.',
  printNotStarted: 'The print job could not be started. Please try again.',
  printStarted: (total: number) => `Print job started: ${labelsText(total)} to print.`,
  reprintStarted: (total: number) => `Reprint started: ${labelsText(total)} to print.`,
  notRefreshed: (reason: string) =>
    `The progress could not be refreshed: ${reason} Trying again shortly.`,
} as const;

import { PrinterPage } from '@/features/labels/components/printer-page';

export function Component() {
  return <PrinterPage />;
}

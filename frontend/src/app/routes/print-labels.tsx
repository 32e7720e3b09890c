import { LabelTemplatesPage } from '@/features/labels/components/label-templates-page';

export function Component() {
  return <LabelTemplatesPage />;
}

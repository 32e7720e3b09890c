import { IconGalleryPage } from '@/features/icons/components/icon-gallery-page';

export function Component() {
  return <IconGalleryPage />;
}

import { BillListIcon } from '@solar-icons/react/linear/bill-list';
import { BoxIcon } from '@solar-icons/react/linear/box';
import { Buildings2Icon } from '@solar-icons/react/linear/buildings-2';
import { CalendarIcon } from '@solar-icons/react/linear/calendar';
import { CartLarge2Icon } from '@solar-icons/react/linear/cart-large-2';
import { ChartSquareIcon } from '@solar-icons/react/linear/chart-square';
import { ChecklistMinimalisticIcon } from '@solar-icons/react/linear/checklist-minimalistic';
import { ClipboardListIcon } from '@solar-icons/react/linear/clipboard-list';
import { DatabaseIcon } from '@solar-icons/react/linear/database';
import { DeliveryIcon } from '@solar-icons/react/linear/delivery';
import { DocumentTextIcon } from '@solar-icons/react/linear/document-text';
import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { FileSendIcon } from '@solar-icons/react/linear/file-send';
import { GraphUpIcon } from '@solar-icons/react/linear/graph-up';
import { Home2Icon } from '@solar-icons/react/linear/home-2';
import { LayersMinimalisticIcon } from '@solar-icons/react/linear/layers-minimalistic';
import { PaletteIcon } from '@solar-icons/react/linear/palette';
import { PassportIcon } from '@solar-icons/react/linear/passport';
import { PrinterIcon } from '@solar-icons/react/linear/printer';
import { QrCodeIcon } from '@solar-icons/react/linear/qr-code';
import { SettingsIcon } from '@solar-icons/react/linear/settings';
import { Shop2Icon } from '@solar-icons/react/linear/shop-2';
import { ShieldCheckIcon } from '@solar-icons/react/linear/shield-check';
import { SledgehammerIcon } from '@solar-icons/react/linear/sledgehammer';
import { TagPriceIcon } from '@solar-icons/react/linear/tag-price';
import { TestTubeIcon } from '@solar-icons/react/linear/test-tube';
import { Tuning2Icon } from '@solar-icons/react/linear/tuning-2';
import { UploadMinimalisticIcon } from '@solar-icons/react/linear/upload-minimalistic';
import { UserCircleIcon } from '@solar-icons/react/linear/user-circle';
import { UsersGroupRoundedIcon } from '@solar-icons/react/linear/users-group-rounded';
import type { ComponentType } from 'react';
import { paths, type ClientAreaKey } from './paths';

export interface NavItem {
  label: string;
  /** Where the link goes. */
  href: string;
  /** The path checked against the server's allowed paths. */
  path: string;
  icon: ComponentType<{ className?: string }>;
  /** Set for links into a client-scoped area. */
  clientArea?: ClientAreaKey;
  /** Highlight only on an exact match (for `/`). */
  end?: boolean;
}

export interface NavSection {
  heading: string;
  items: NavItem[];
}

function item(
  label: string,
  route: { path: string; href: () => string },
  icon: NavItem['icon'],
  extra: Partial<NavItem> = {},
): NavItem {
  return { label, href: route.href(), path: route.path, icon, ...extra };
}

/**
 * The sidebar. Which items a person sees is decided per item by the same
 * redirect decision the guards use, against the server's `allowedPaths`.
 */
export const navigation: NavSection[] = [
  {
    heading: 'Overview',
    items: [
      item('Dashboard', paths.home, Home2Icon, { end: true }),
      item('Usage', paths.usage, ChartSquareIcon),
    ],
  },
  {
    heading: 'Brand protection',
    items: [
      item('Products', paths.products, BoxIcon),
      item('Label printing', paths.printLabels, QrCodeIcon),
      item('Printing', paths.printer, PrinterIcon),
      item('Digital passport', paths.dpp, PassportIcon),
    ],
  },
  {
    heading: 'Operations',
    items: [
      item('ERP', paths.erp, LayersMinimalisticIcon, { end: true }),
      item('Inventory', paths.inventory, ClipboardListIcon),
      item('Procurement', paths.procurement, CartLarge2Icon),
      item('Manufacturing', paths.manufacturing, SledgehammerIcon),
      item('QA and compliance', paths.qaCompliance, TestTubeIcon),
      item('Logistics', paths.logistics, DeliveryIcon),
      item('Sales', paths.sales, Shop2Icon),
      item('Pricing', paths.pricing, TagPriceIcon),
      item('Financial metrics', paths.financial, GraphUpIcon),
      item('Invoices', paths.erpFinance, BillListIcon),
      item('Database', paths.erpDatabase, DatabaseIcon),
      item('Task board', paths.organizer, ChecklistMinimalisticIcon),
      item('Calendar', paths.calendar, CalendarIcon),
    ],
  },
  {
    heading: 'Client tools',
    items: [
      item('Client A dashboard', paths.clientA.dashboard, Home2Icon, { clientArea: 'clientA' }),
      item('Client A reports', paths.clientA.reports, FileSendIcon, { clientArea: 'clientA' }),
      item('Code selector', paths.gmeCodeDownload, DownloadMinimalisticIcon),
      item('Batch update', paths.gmeBatchUpdate, UploadMinimalisticIcon),
      item('Client B dashboard', paths.clientB.dashboard, Home2Icon, { clientArea: 'clientB' }),
      item('Bulk code download', paths.pmbiCodeDownload, DownloadMinimalisticIcon),
      item('Manual batch entry', paths.pmbiBatchUpdate, UploadMinimalisticIcon),
    ],
  },
  {
    heading: 'Platform',
    items: [item('Tenants', paths.adminDashboard, Buildings2Icon)],
  },
  {
    heading: 'Organisation',
    items: [
      item('All Users', paths.manageOrg, UsersGroupRoundedIcon),
      item('Configuration', paths.configuration, Tuning2Icon),
    ],
  },
  {
    heading: 'Account',
    items: [
      item('Profile', paths.profile, UserCircleIcon),
      item('Settings', paths.settings, SettingsIcon),
    ],
  },
  {
    heading: 'Resources',
    items: [
      item('Icons', paths.iconsSolar, PaletteIcon),
      item('Terms and conditions', paths.terms, DocumentTextIcon),
      item('Privacy policy', paths.privacy, ShieldCheckIcon),
    ],
  },
];

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
import type { ModuleRequirement } from '@/lib/access/modules';
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
  /**
   * The plan module the page belongs to: without it the link is hidden and
   * the page says it is not part of the plan (its route names the same one).
   */
  module?: ModuleRequirement;
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

/** Any ERP module: the ERP overview and its database playground. */
export const ERP_MODULES: ModuleRequirement = {
  anyOf: [
    'inventory',
    'procurement',
    'manufacturing',
    'qa',
    'logistics',
    'sales',
    'pricing',
    'invoices',
    'finance',
  ],
};

/**
 * The sidebar. Which items a person sees is decided per item by the same
 * redirect decision the guards use, against the server's `allowedPaths`, and
 * by the organisation's plan modules (`module`).
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
      item('Products', paths.products, BoxIcon, { module: 'products' }),
      item('Label printing', paths.printLabels, QrCodeIcon, { module: 'labels' }),
      item('Printing', paths.printer, PrinterIcon, { module: 'labels' }),
      item('Digital passport', paths.dpp, PassportIcon, { module: 'dpp' }),
    ],
  },
  {
    heading: 'Operations',
    items: [
      item('ERP', paths.erp, LayersMinimalisticIcon, { end: true, module: ERP_MODULES }),
      item('Inventory', paths.inventory, ClipboardListIcon, { module: 'inventory' }),
      item('Procurement', paths.procurement, CartLarge2Icon, { module: 'procurement' }),
      item('Manufacturing', paths.manufacturing, SledgehammerIcon, { module: 'manufacturing' }),
      item('QA and compliance', paths.qaCompliance, TestTubeIcon, { module: 'qa' }),
      item('Logistics', paths.logistics, DeliveryIcon, { module: 'logistics' }),
      item('Sales', paths.sales, Shop2Icon, { module: 'sales' }),
      item('Pricing', paths.pricing, TagPriceIcon, { module: 'pricing' }),
      item('Financial metrics', paths.financial, GraphUpIcon, { module: 'finance' }),
      item('Invoices', paths.erpFinance, BillListIcon, { module: 'invoices' }),
      item('Database', paths.erpDatabase, DatabaseIcon, { module: ERP_MODULES }),
      item('Task board', paths.organizer, ChecklistMinimalisticIcon, { module: 'tasks' }),
      item('Calendar', paths.calendar, CalendarIcon, { module: 'calendar' }),
    ],
  },
  {
    heading: 'Client tools',
    items: [
      item('Client A dashboard', paths.clientA.dashboard, Home2Icon, {
        clientArea: 'clientA',
        module: 'client_tools',
      }),
      item('Client A reports', paths.clientA.reports, FileSendIcon, {
        clientArea: 'clientA',
        module: 'client_tools',
      }),
      item('Code selector', paths.gmeCodeDownload, DownloadMinimalisticIcon, {
        module: 'client_tools',
      }),
      item('Batch update', paths.gmeBatchUpdate, UploadMinimalisticIcon, {
        module: 'client_tools',
      }),
      item('Client B dashboard', paths.clientB.dashboard, Home2Icon, {
        clientArea: 'clientB',
        module: 'client_tools',
      }),
      item('Bulk code download', paths.pmbiCodeDownload, DownloadMinimalisticIcon, {
        module: 'client_tools',
      }),
      item('Manual batch entry', paths.pmbiBatchUpdate, UploadMinimalisticIcon, {
        module: 'client_tools',
      }),
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

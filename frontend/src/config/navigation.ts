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
import { WalletMoneyIcon } from '@solar-icons/react/linear/wallet-money';
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
  /** A page a later issue builds: it shows "not available yet" (its route is `planned(...)`). */
  planned?: boolean;
  /** Shown only to platform admins (a developer's page; its route stays open to everyone). */
  platformOnly?: boolean;
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
      item('Label designs', paths.printLabels, QrCodeIcon, { module: 'labels' }),
      item('Print jobs', paths.printer, PrinterIcon, { module: 'labels' }),
      item('Digital passport', paths.dpp, PassportIcon, { module: 'dpp' }),
    ],
  },
  {
    heading: 'Operations',
    items: [
      item('ERP', paths.erp, LayersMinimalisticIcon, {
        end: true,
        module: ERP_MODULES,
        planned: true,
      }),
      item('Inventory', paths.inventory, ClipboardListIcon, { module: 'inventory' }),
      item('Stock valuation', paths.erpInventory, WalletMoneyIcon, { module: 'inventory' }),
      item('Procurement', paths.procurement, CartLarge2Icon, { module: 'procurement' }),
      item('Manufacturing', paths.manufacturing, SledgehammerIcon, { module: 'manufacturing' }),
      item('QA and compliance', paths.qaCompliance, TestTubeIcon, { module: 'qa' }),
      item('Logistics', paths.logistics, DeliveryIcon, { module: 'logistics' }),
      item('Sales', paths.sales, Shop2Icon, { module: 'sales', planned: true }),
      item('Pricing', paths.pricing, TagPriceIcon, { module: 'pricing' }),
      item('Financial metrics', paths.financial, GraphUpIcon, { module: 'finance', planned: true }),
      item('Invoices', paths.erpFinance, BillListIcon, { module: 'invoices', planned: true }),
      item('Database', paths.erpDatabase, DatabaseIcon, { module: ERP_MODULES, planned: true }),
      item('Task board', paths.organizer, ChecklistMinimalisticIcon, {
        module: 'tasks',
        planned: true,
      }),
      item('Calendar', paths.calendar, CalendarIcon, { module: 'calendar', planned: true }),
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
      item('Icons', paths.iconsSolar, PaletteIcon, { platformOnly: true }),
      item('Terms and conditions', paths.terms, DocumentTextIcon),
      item('Privacy policy', paths.privacy, ShieldCheckIcon),
    ],
  },
];

/** What decides whether a person sees a sidebar entry, and where. */
export interface NavAccess {
  /** Would the guard let them open the page? */
  canOpen: (path: string, area?: ClientAreaKey) => boolean;
  /** Does their organisation's plan have the module? */
  hasModule: (required?: ModuleRequirement) => boolean;
  isPlatformAdmin: boolean;
}

/** Why an entry is not a working page for this person. */
export type Unavailability = 'planned' | 'not-in-plan';

export interface UnavailableItem extends NavItem {
  reason: Unavailability;
}

/**
 * The sidebar for one person: the sections of working pages they may open,
 * and apart from them the pages they may open that do not work for them yet
 * (a later issue builds them, or their module is not in the plan). Pages
 * they may not open appear in neither.
 */
export function splitNavigation(
  sections: NavSection[],
  access: NavAccess,
): { working: NavSection[]; unavailable: UnavailableItem[] } {
  const unavailable: UnavailableItem[] = [];
  const working = sections
    .map((section) => ({
      ...section,
      items: section.items.filter((entry) => {
        if (entry.platformOnly && !access.isPlatformAdmin) return false;
        if (!access.canOpen(entry.path, entry.clientArea)) return false;
        if (!access.hasModule(entry.module)) {
          unavailable.push({ ...entry, reason: 'not-in-plan' });
          return false;
        }
        if (entry.planned) {
          unavailable.push({ ...entry, reason: 'planned' });
          return false;
        }
        return true;
      }),
    }))
    .filter((section) => section.items.length > 0);
  return { working, unavailable };
}

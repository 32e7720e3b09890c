/**
 * The one table of the app's paths (spec §2). Route definitions, links, the
 * sidebar and the guards all read from here, so a path is spelled once.
 *
 * `path` is the react-router pattern; `href` builds a concrete URL.
 * Matching is case-insensitive in the router and in the access check.
 */
export const paths = {
  home: { path: '/', href: () => '/' },

  auth: {
    login: {
      path: '/auth/login',
      href: (redirectTo?: string | null) =>
        redirectTo && redirectTo !== '/'
          ? `/auth/login?redirectTo=${encodeURIComponent(redirectTo)}`
          : '/auth/login',
    },
    notFound: { path: '/auth/404', href: () => '/auth/404' },
  },
  notFound: { path: '/404', href: () => '/404' },
  unauthorized: { path: '/unauthorized', href: () => '/unauthorized' },
  processMapping: { path: '/ProcessMapping', href: () => '/ProcessMapping' },

  erp: { path: '/erp', href: () => '/erp' },
  erpInventory: { path: '/erp/inventory', href: () => '/erp/inventory' },
  erpFinance: { path: '/erp/finance', href: () => '/erp/finance' },
  erpDatabase: { path: '/erp/database', href: () => '/erp/database' },
  printLabels: { path: '/print/lables', href: () => '/print/lables' },
  calendar: { path: '/calender', href: () => '/calender' },
  organizer: { path: '/organizer', href: () => '/organizer' },

  products: { path: '/products', href: () => '/products' },
  productAdd: { path: '/products/Add_product', href: () => '/products/Add_product' },
  productEdit: {
    path: '/products/Edit_product/:key',
    href: (key: string) => `/products/Edit_product/${encodeURIComponent(key)}`,
  },
  productDetail: {
    path: '/products/:id',
    href: (id: string) => `/products/${encodeURIComponent(id)}`,
  },

  profile: { path: '/profile', href: () => '/profile' },
  procurement: { path: '/procurement', href: () => '/procurement' },
  usage: { path: '/ui/table', href: () => '/ui/table' },
  inventory: { path: '/inventory', href: () => '/inventory' },
  qaCompliance: { path: '/QAandCompliance', href: () => '/QAandCompliance' },
  manufacturing: { path: '/Manufacturing', href: () => '/Manufacturing' },
  logistics: { path: '/Logistics', href: () => '/Logistics' },
  dpp: { path: '/DPP', href: () => '/DPP' },
  dppPassport: {
    path: '/DPP/:productId',
    href: (productId: string, lot?: string) =>
      `/DPP/${encodeURIComponent(productId)}${lot ? `?lot=${encodeURIComponent(lot)}` : ''}`,
  },
  sales: { path: '/Sales', href: () => '/Sales' },
  pricing: { path: '/Pricing', href: () => '/Pricing' },
  financial: { path: '/Financial', href: () => '/Financial' },
  printer: { path: '/printer', href: () => '/printer/' },
  adminDashboard: { path: '/admin/dashboard', href: () => '/admin/dashboard' },
  configuration: { path: '/configuration', href: () => '/configuration' },
  iconsSolar: { path: '/icons/solar', href: () => '/icons/solar' },
  settings: { path: '/Settings', href: () => '/Settings' },
  terms: { path: '/TermsAndConditions', href: () => '/TermsAndConditions' },
  privacy: { path: '/PrivacyPolicy', href: () => '/PrivacyPolicy' },
  gmeCodeDownload: { path: '/gme/codeDownload', href: () => '/gme/codeDownload' },
  gmeBatchUpdate: { path: '/gme/batchUpdate', href: () => '/gme/batchUpdate' },
  pmbiCodeDownload: { path: '/pmbi/codeDownload', href: () => '/pmbi/codeDownload' },
  pmbiBatchUpdate: { path: '/pmbi/batchUpdate', href: () => '/pmbi/batchUpdate' },
  pharmagenBatchUpdate: { path: '/pharmagen/batchupdate', href: () => '/pharmagen/batchupdate' },
  manageOrg: { path: '/manage_org', href: () => '/manage_org' },

  clientA: {
    root: { path: '/clientA', href: () => '/clientA/dashboard' },
    dashboard: { path: '/clientA/dashboard', href: () => '/clientA/dashboard' },
    reports: { path: '/clientA/reports', href: () => '/clientA/reports' },
  },
  clientB: {
    root: { path: '/clientB', href: () => '/clientB/dashboard' },
    dashboard: { path: '/clientB/dashboard', href: () => '/clientB/dashboard' },
  },
} as const;

/** Client-scoped areas (spec §2): the area's tenant id and the roles allowed in. */
export const clientAreas = {
  clientA: { clientId: 'clientA', roles: ['admin', 'employee'] },
  clientB: { clientId: 'clientB', roles: ['admin', 'employee'] },
} as const;

export type ClientAreaKey = keyof typeof clientAreas;

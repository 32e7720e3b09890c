import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router';
import { ErrorScreen } from '@/components/errors/error-screen';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { Splash } from '@/components/layout/splash';
import { NotAvailablePage } from '@/components/not-available/not-available-page';
import type { PlannedModuleKey } from '@/config/modules';
import { ERP_MODULES } from '@/config/navigation';
import { paths } from '@/config/paths';
import type { ModuleRequirement } from '@/lib/access/modules';
import { AccessGuard } from './guards/access-guard';
import { ModuleGate } from './guards/module-gate';
import { BlankLayout } from './layouts/blank-layout';
import { MainLayout } from './layouts/main-layout';

/**
 * A route of a module a later issue builds: the shared "not available yet"
 * page, or "not part of your plan" when the organisation does not have the
 * plan module it belongs to.
 */
function planned(path: string, module: PlannedModuleKey, plan?: ModuleRequirement): RouteObject {
  const page = <NotAvailablePage module={module} />;
  return { path, element: plan ? <ModuleGate module={plan}>{page}</ModuleGate> : page };
}

/** Routes of a plan module: their pages, or "not part of your plan" without it. */
function ofModule(module: ModuleRequirement, children: RouteObject[]): RouteObject {
  return { element: <ModuleGate module={module} />, children };
}

const toNotFound = <Navigate to={paths.auth.notFound.href()} replace />;

/** Paths are relative to their parent; `paths` has the absolute spelling. */
const rel = (path: string) => path.replace(/^\//, '');

/**
 * Every route of the spec (§2): the main layout behind the access guard, the
 * client-scoped areas behind the guard with their client, and the blank
 * layout. Built pages are split into their own chunks.
 */
export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    errorElement: <ErrorScreen />,
    HydrateFallback: Splash,
    children: [
      // The spec's routes keep their spelling (`/print/lables`, `/calender`);
      // the correct spelling leads there, before any guard looks at it.
      {
        path: 'print/labels',
        element: <Navigate to={paths.printLabels.href()} replace />,
      },
      { path: 'calendar', element: <Navigate to={paths.calendar.href()} replace /> },
      {
        element: <AccessGuard />,
        children: [
          {
            element: <MainLayout />,
            children: [
              { index: true, lazy: () => import('./routes/dashboard') },
              planned(rel(paths.erp.path), 'erp', ERP_MODULES),
              planned(rel(paths.erpFinance.path), 'invoices', 'invoices'),
              planned(rel(paths.erpDatabase.path), 'database', ERP_MODULES),
              planned(rel(paths.calendar.path), 'calendar', 'calendar'),
              planned(rel(paths.organizer.path), 'organizer', 'tasks'),
              ofModule('labels', [
                { path: rel(paths.printLabels.path), lazy: () => import('./routes/print-labels') },
                { path: rel(paths.printer.path), lazy: () => import('./routes/printer') },
              ]),
              ofModule('products', [
                { path: rel(paths.products.path), lazy: () => import('./routes/products') },
                { path: rel(paths.productAdd.path), lazy: () => import('./routes/product-add') },
                { path: rel(paths.productEdit.path), lazy: () => import('./routes/product-edit') },
                {
                  path: rel(paths.productDetail.path),
                  lazy: () => import('./routes/product-detail'),
                },
              ]),
              { path: rel(paths.profile.path), lazy: () => import('./routes/profile') },
              ofModule('procurement', [
                { path: rel(paths.procurement.path), lazy: () => import('./routes/procurement') },
              ]),
              { path: rel(paths.usage.path), lazy: () => import('./routes/usage') },
              ofModule('inventory', [
                { path: rel(paths.inventory.path), lazy: () => import('./routes/inventory') },
                {
                  path: rel(paths.erpInventory.path),
                  lazy: () => import('./routes/erp-inventory'),
                },
              ]),
              ofModule('qa', [
                { path: rel(paths.qaCompliance.path), lazy: () => import('./routes/quality') },
              ]),
              ofModule('manufacturing', [
                {
                  path: rel(paths.manufacturing.path),
                  lazy: () => import('./routes/manufacturing'),
                },
              ]),
              ofModule('logistics', [
                { path: rel(paths.logistics.path), lazy: () => import('./routes/logistics') },
              ]),
              ofModule('dpp', [
                { path: rel(paths.dpp.path), lazy: () => import('./routes/passports') },
                { path: rel(paths.dppPassport.path), lazy: () => import('./routes/passport') },
              ]),
              planned(rel(paths.sales.path), 'sales', 'sales'),
              ofModule('pricing', [
                { path: rel(paths.pricing.path), lazy: () => import('./routes/pricing') },
              ]),
              planned(rel(paths.financial.path), 'financial', 'finance'),
              {
                path: rel(paths.adminDashboard.path),
                lazy: () => import('./routes/admin-dashboard'),
              },
              {
                path: rel(paths.configuration.path),
                lazy: () => import('./routes/configuration'),
              },
              { path: rel(paths.iconsSolar.path), lazy: () => import('./routes/icons-solar') },
              { path: rel(paths.settings.path), lazy: () => import('./routes/settings') },
              { path: rel(paths.terms.path), lazy: () => import('./routes/terms') },
              { path: rel(paths.privacy.path), lazy: () => import('./routes/privacy') },
              ofModule('client_tools', [
                {
                  path: rel(paths.gmeCodeDownload.path),
                  lazy: () => import('./routes/gme-code-download'),
                },
                {
                  path: rel(paths.gmeBatchUpdate.path),
                  lazy: () => import('./routes/gme-batch-update'),
                },
                {
                  path: rel(paths.pmbiCodeDownload.path),
                  lazy: () => import('./routes/pmbi-code-download'),
                },
                {
                  path: rel(paths.pmbiBatchUpdate.path),
                  lazy: () => import('./routes/pmbi-batch-update'),
                },
              ]),
              {
                path: rel(paths.pharmagenBatchUpdate.path),
                lazy: () => import('./routes/pharmagen-batch-update'),
              },
              { path: rel(paths.manageOrg.path), lazy: () => import('./routes/manage-org') },
              {
                path: rel(paths.clientA.root.path),
                element: <AccessGuard clientArea="clientA" />,
                children: [
                  { index: true, element: <Navigate to={paths.clientA.root.href()} replace /> },
                  ofModule('client_tools', [
                    { path: 'dashboard', lazy: () => import('./routes/client-a-dashboard') },
                    { path: 'reports', lazy: () => import('./routes/client-a-reports') },
                  ]),
                  { path: '*', element: toNotFound },
                ],
              },
              {
                path: rel(paths.clientB.root.path),
                element: <AccessGuard clientArea="clientB" />,
                children: [
                  { index: true, element: <Navigate to={paths.clientB.root.href()} replace /> },
                  ofModule('client_tools', [
                    { path: 'dashboard', lazy: () => import('./routes/client-b-dashboard') },
                  ]),
                  { path: '*', element: toNotFound },
                ],
              },
            ],
          },
        ],
      },
      {
        element: <BlankLayout />,
        children: [
          {
            element: <AccessGuard />,
            children: [{ path: rel(paths.auth.login.path), lazy: () => import('./routes/login') }],
          },
          { path: rel(paths.auth.notFound.path), element: <NotFoundPage /> },
          { path: rel(paths.notFound.path), element: <NotFoundPage /> },
          { path: rel(paths.unauthorized.path), lazy: () => import('./routes/unauthorized') },
          // A blank page in the spec, but it will show the organisation's
          // data: signed-in members only (the policy's `view` rows).
          {
            element: <AccessGuard />,
            children: [planned(rel(paths.processMapping.path), 'processMapping')],
          },
          { path: '*', element: toNotFound },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

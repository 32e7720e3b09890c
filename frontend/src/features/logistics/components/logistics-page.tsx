import type { ReactNode } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { useApiResult } from '@/hooks/use-api-result';
import type { ApiResult } from '@/lib/api/call-api';
import type { Role } from '@/lib/api/types';
import { canManageLogistics, canShip } from '../access';
import {
  fetchCustomers,
  fetchLocations,
  fetchProducts,
  fetchShipments,
  type Customer,
  type LocationChoice,
  type ProductChoice,
  type Shipment,
} from '../api/logistics-api';
import { CustomersSection } from './customers-section';
import { ShipmentForm } from './shipment-form';
import { ShipmentsSection } from './shipments-section';
import './logistics.css';

interface LogisticsData {
  shipments: Shipment[];
  customers: Customer[];
  locations: LocationChoice[];
  products: ProductChoice[];
}

async function load(): Promise<ApiResult<LogisticsData>> {
  const [shipments, customers, locations, products] = await Promise.all([
    fetchShipments(),
    fetchCustomers(),
    fetchLocations(),
    fetchProducts(),
  ]);
  if (!shipments.ok) return shipments;
  if (!customers.ok) return customers;
  if (!locations.ok) return locations;
  if (!products.ok) return products;
  return {
    ok: true,
    data: {
      shipments: shipments.data,
      customers: customers.data,
      locations: locations.data,
      products: [...products.data].sort((a, b) => a.product_name.localeCompare(b.product_name)),
    },
  };
}

/** A section of the page after the built-in ones (the recall screen, say). */
export interface ExtraSection {
  /** The anchor of its link in the page's table of contents. */
  id: string;
  title: string;
  content: ReactNode;
}

/**
 * `/Logistics` (issue 23): shipments (create, ship, deliver, cancel, SSCC
 * labels) and customers. The page is a list of sections with a table of
 * contents; `sections` adds more (another feature's, passed in by the route
 * module). `role` decides which forms and buttons show (the server refuses the
 * calls either way).
 */
export function LogisticsPage({
  role,
  sections = [],
}: {
  role: Role | null | undefined;
  sections?: readonly ExtraSection[];
}) {
  const { result, reload, update } = useApiResult(load);
  const mayShip = canShip(role);
  const mayManage = canManageLogistics(role);
  const links = [
    { id: 'shipments', title: 'Shipments' },
    ...(mayShip ? [{ id: 'new-shipment', title: 'New shipment' }] : []),
    { id: 'customers', title: 'Customers' },
    ...sections.map((s) => ({ id: s.id, title: s.title })),
  ];

  const changed = (shipment: Shipment) =>
    update((d) => ({
      ...d,
      shipments: d.shipments.some((s) => s.id === shipment.id)
        ? d.shipments.map((s) => (s.id === shipment.id ? shipment : s))
        : [shipment, ...d.shipments],
    }));

  return (
    <>
      <PageHeader
        title="Logistics"
        description="Shipments to your customers: the stock they reserve, their packages’ SSCCs and labels, and their delivery."
      />
      <nav aria-label="Sections of the logistics page">
        <ul className="page-links">
          {links.map((l) => (
            <li key={l.id}>
              <a href={`#${l.id}`}>{l.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the shipments…">
        {(data) => (
          <div className="logistics-sections">
            <div id="shipments">
              <ShipmentsSection
                shipments={data.shipments}
                mayShip={mayShip}
                mayCancel={mayManage}
                onChanged={changed}
              />
            </div>
            {mayShip ? (
              <div id="new-shipment">
                <CardSection title="New shipment">
                  <ShipmentForm
                    customers={data.customers}
                    locations={data.locations}
                    products={data.products}
                    onCreated={changed}
                  />
                </CardSection>
              </div>
            ) : null}
            <div id="customers">
              <CustomersSection
                customers={data.customers}
                canAdd={mayManage}
                onAdded={(customer) =>
                  update((d) => ({
                    ...d,
                    customers: [...d.customers, customer].sort((a, b) =>
                      a.name.localeCompare(b.name),
                    ),
                  }))
                }
              />
            </div>
          </div>
        )}
      </ApiResultView>
      {sections.map((s) => (
        <div id={s.id} key={s.id}>
          {s.content}
        </div>
      ))}
    </>
  );
}

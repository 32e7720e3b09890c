/**
 * Modules whose screens a later issue builds (spec §1, §2). Their routes exist
 * now and show one honest "not available yet" page that says what the module
 * will do; none of them shows data.
 */
export const plannedModules = {
  erp: {
    title: 'ERP',
    summary: 'One view of stock, orders and finance across the ERP modules.',
  },
  invoices: { title: 'Invoices', summary: 'Issue, send and follow up invoices.' },
  database: {
    title: 'Database playground',
    summary: 'Read-only queries over your organisation’s own data, for admins.',
  },
  calendar: { title: 'Calendar', summary: 'Production, delivery and audit dates in one calendar.' },
  organizer: { title: 'Task board', summary: 'A kanban board for your team’s work.' },
  sales: { title: 'Sales', summary: 'Customers, orders and order quantities.' },
  financial: { title: 'Financial metrics', summary: 'Revenue, costs and margins.' },
  processMapping: {
    title: 'Process mapping',
    summary: 'A map of how your products move from production to the consumer.',
  },
} as const satisfies Record<string, { title: string; summary: string }>;

export type PlannedModuleKey = keyof typeof plannedModules;

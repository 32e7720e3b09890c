//! brandops server library: everything `main.rs` and the tests start.
//!
//! Infrastructure, apart from the domains, imports no domain:
//! - `config`, `telemetry`: settings from the environment, structured logs;
//! - `db`: pools, platform and tenant transactions, migrations, tenant schemas;
//! - `storage`: files (images, label outputs) through `object_store`;
//! - `gs1`: GS1 numbers (check digits, GTIN, GLN, SSCC), character set 82
//!   and Digital Link path segments;
//! - `jobs`: the background job runner (code generation, label printing);
//! - `http`: the error envelope, request guard, security schemes, access
//!   policy, operations table, input rules and health;
//! - `audit`: the audit log; `tenancy`: a tenant's reference, kind and
//!   identifiers; `identity`: sessions, roles, password hashing;
//! - `uploads`: the guard every uploaded archive (XLSX) passes before it is
//!   opened (sizes, ratios, cells).
//!
//! `app` is the composition root: the only module that knows every domain
//! (the tuple of APIs, the routes, each domain's state, the job dispatch,
//! start-up). A test there fails when infrastructure names a domain.
//!
//! Domains, each one folder with the same parts (`mod.rs`: types and rules;
//! `api.rs` or `api/`: its operations; `store.rs`: its SQL):
//! `accounts` (organisation users, the user's own profile and preferences),
//! `auth` (sign-in, sessions), `batch_updates` (Schedule H2 batch data
//! assigned to codes by file or form), `codes` (serialized codes: jobs,
//! downloads), `companies` (a client's companies by CIN and their overview), `epcis` (EPCIS 2.0 events: capture, export, the product journey and
//! traceability), `labels` (templates, previews, print jobs), `logistics` (shipments,
//! their SSCCs, EPCIS shipping events and logistic labels), `lots` (the one lot
//! register and its status history), `manufacturing` (bills of materials,
//! manufacturing orders), `organisation`, `passports`
//! (digital product passports and their versions), `pricing` (price lists
//! and quotes), `procurement` (purchase
//! orders, receipts, supplier bills and the three-way match), `products`,
//! `quality` (inspections, nonconformances and CAPA, certificates of analysis),
//! `reviews` (consumers' reviews from the scan page), `scans` (the public resolver, scan
//! records and analytics), `tenants`
//! (onboarding and platform administration), `trace` (a lot's genealogy
//! both ways, and recalls). `docs/adding-a-domain.md` is the
//! checklist for a new one.

// The composition root: the one module that knows every domain.
pub mod app;

// Infrastructure: imports no domain (`app::layers` fails when one does).
pub mod audit;
pub mod config;
pub mod db;
pub mod gs1;
pub mod http;
pub mod identity;
pub mod jobs;
pub mod storage;
pub mod telemetry;
pub mod tenancy;
pub mod uploads;

// Domains: one folder each, listed in ADR 0007 ("Domains today") and the
// README ("Where things are"); `tests/api/docs.rs` fails when one is missing.
pub mod accounts;
pub mod auth;
pub mod batch_updates;
pub mod codes;
pub mod companies;
pub mod epcis;
pub mod inventory;
pub mod labels;
pub mod logistics;
pub mod lots;
pub mod manufacturing;
pub mod organisation;
pub mod parties;
pub mod passports;
pub mod pricing;
pub mod procurement;
pub mod products;
pub mod quality;
pub mod reviews;
pub mod scans;
pub mod tenants;
pub mod trace;

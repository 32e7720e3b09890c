//! The OpenAPI tags. A leaf module: every domain's API names its tag from
//! here, and this file imports nothing from the crate, so nothing imports in a
//! circle.

use poem_openapi::Tags;

#[derive(Tags)]
pub enum ApiTags {
    /// Liveness and readiness.
    Health,
    /// Sign-in, session and sign-out.
    Auth,
    /// The organisation's users (All Users page).
    Users,
    /// The signed-in user's own profile and preferences.
    Me,
    /// The signed-in user's organisation.
    Organisation,
    /// Platform administration: tenants.
    Platform,
    /// Products, their GTINs and the plan's product limit.
    Products,
    /// Serialized codes: code jobs, their progress and downloads.
    Codes,
    /// Label templates, previews and print jobs.
    Labels,
    /// Scans of codes: the brand's analytics, its suspicious-scan rules and
    /// the platform admins' list across brands. (The public resolver itself,
    /// `GET /01/{gtin}[/10/{lot}]/21/{serial}`, is outside `/api`.)
    Scans,
    /// Consumers' reviews from the scan page, read and moderated by the
    /// brand. (Consumers send them to `POST /r/review`, outside `/api`.)
    Reviews,
    /// EPCIS 2.0 events: capture and export, steps recorded in the app
    /// (packing, shipping, receiving), the product journey and
    /// traceability.
    Epcis,
    /// Digital product passports (EU ESPR Annex III data) of products and
    /// lots, their versions and completeness.
    Passports,
    /// A client's companies, identified by their Corporate Identification
    /// Number (CIN), and each one's products, batches and codes.
    Companies,
    /// Batch data (Schedule H2: batch number, dates, licence number)
    /// assigned to codes by file or form: the pharmaceutical clients.
    BatchUpdates,
    /// The one lot register: every lot (batch) of a product, its dates and
    /// its status (quarantine, released, held, rejected, recalled) with the
    /// history of who changed it, when and why.
    Lots,
    /// Quality and compliance: inspections of lots (which hold or release
    /// them), nonconformances and their CAPA, certificates of analysis.
    Quality,
    /// Inventory: locations, the stock ledger (append-only moves), balances
    /// per product, location and lot, reservations (first expiry first
    /// out), replenishment and the valuation.
    Inventory,
    /// Suppliers: the organisations brandops' users buy from (name, GLN,
    /// country).
    Suppliers,
    /// Customers: the organisations the goods are shipped and sold to
    /// (name, GLN, country, price-list group).
    Customers,
    /// Procurement: purchase orders, their receipts into lots and stock,
    /// and supplier bills matched three ways (order, receipt, bill).
    Procurement,
    /// Manufacturing: versioned bills of materials and manufacturing orders
    /// that consume component lots and produce an output lot.
    Manufacturing,
    /// Logistics: shipments to customers, their SSCCs and logistic labels,
    /// and their EPCIS shipping and receiving events.
    Logistics,
    /// Recalls: a lot and every lot made from it recalled in one request,
    /// with the shipments and customers affected.
    Recalls,
    /// Pricing: price lists (per currency, validity and customer group,
    /// with volume or graduated tiers) and the quote of a quantity.
    Pricing,
    /// What a consumer's or a partner's app calls without signing in,
    /// outside `/api`: the resolver's verdict on a code (its GS1 Digital
    /// Link), a review of the scanned product and the place of a scan.
    Public,
}

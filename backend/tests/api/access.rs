//! Calls every operation of `openapi.yaml` as every kind of account (and as
//! nobody), asserting the policy's allow/deny. Expectations are keyed by
//! `operation_id`; an operation without one fails the test.

use std::collections::BTreeMap;

use brandops::accounts::Role;
use brandops::tenants::TenantKind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, repo_root};

/// Who calls: a kind of account, created by the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Anonymous,
    BrandAdmin,
    BrandManager,
    BrandWorker,
    ClientAdmin,
    ClientEmployee,
    ClientBAdmin,
    ClientBEmployee,
    PlatformAdmin,
}

const EVERYONE: [Who; 9] = [
    Who::Anonymous,
    Who::BrandAdmin,
    Who::BrandManager,
    Who::BrandWorker,
    Who::ClientAdmin,
    Who::ClientEmployee,
    Who::ClientBAdmin,
    Who::ClientBEmployee,
    Who::PlatformAdmin,
];

/// Who may call each operation.
#[derive(Clone, Copy, Debug)]
enum Allowed {
    Anyone,
    SignedIn,
    TenantMembers,
    /// Every organisation's admins, brands' and clients' (users, the
    /// spec's /printer and its print jobs).
    OrgAdmins,
    /// Tenant members who may open /settings (the spec gives workers none).
    PreferenceEditors,
    Platform,
    /// Brand admins and managers.
    BrandEditors,
    /// Every member of a brand.
    BrandMembers,
    /// Brand admins only.
    BrandAdmins,
    /// Every member of a brand, and platform admins (who name the brand).
    BrandMembersAndPlatform,
    /// Client A's admins and employees (its /clientA area), nobody else.
    ClientAMembers,
    /// Client A's admins only.
    ClientAAdmins,
    /// Every client's admins and employees (batch updates), nobody else.
    ClientMembers,
    /// Every member of a brand, and the admins and employees of clients
    /// (reading products and code jobs).
    BrandAndClientMembers,
    /// Every member of a brand, and clients' admins (adding products).
    BrandMembersAndClientAdmins,
    /// Brand admins and managers, and clients' admins (changing products,
    /// starting code jobs).
    BrandEditorsAndClientAdmins,
    /// Brand admins and managers, and clients' admins and employees
    /// (downloading codes).
    BrandEditorsAndClientMembers,
    /// Client B's admins and employees (its /pmbi area), nobody else.
    ClientBMembers,
}

fn allowed(rule: Allowed, who: Who) -> bool {
    let tenant_member = !matches!(who, Who::Anonymous | Who::PlatformAdmin);
    let brand_member = matches!(who, Who::BrandAdmin | Who::BrandManager | Who::BrandWorker);
    let brand_editor = matches!(who, Who::BrandAdmin | Who::BrandManager);
    let client_admin = matches!(who, Who::ClientAdmin | Who::ClientBAdmin);
    let client_member = client_admin || matches!(who, Who::ClientEmployee | Who::ClientBEmployee);
    match rule {
        Allowed::Anyone => true,
        Allowed::SignedIn => who != Who::Anonymous,
        Allowed::TenantMembers => tenant_member,
        Allowed::OrgAdmins => who == Who::BrandAdmin || client_admin,
        Allowed::PreferenceEditors => tenant_member && who != Who::BrandWorker,
        Allowed::Platform => who == Who::PlatformAdmin,
        Allowed::BrandEditors => brand_editor,
        Allowed::BrandAdmins => who == Who::BrandAdmin,
        Allowed::BrandMembers => brand_member,
        Allowed::BrandMembersAndPlatform => matches!(
            who,
            Who::BrandAdmin | Who::BrandManager | Who::BrandWorker | Who::PlatformAdmin
        ),
        Allowed::ClientAMembers => matches!(who, Who::ClientAdmin | Who::ClientEmployee),
        Allowed::ClientAAdmins => who == Who::ClientAdmin,
        // Any client's admins and employees.
        Allowed::ClientMembers => client_member,
        Allowed::BrandAndClientMembers => brand_member || client_member,
        Allowed::BrandMembersAndClientAdmins => brand_member || client_admin,
        Allowed::BrandEditorsAndClientAdmins => brand_editor || client_admin,
        Allowed::BrandEditorsAndClientMembers => brand_editor || client_member,
        Allowed::ClientBMembers => matches!(who, Who::ClientBAdmin | Who::ClientBEmployee),
    }
}

/// Each operation: who may call it, and a request body that changes nothing
/// when allowed (it is invalid, or names something that does not exist).
fn expectations() -> BTreeMap<&'static str, (Allowed, Option<Value>)> {
    let none = "00000000-0000-0000-0000-000000000000";
    let bad_tenant = json!({"clientId": "", "name": "", "kind": "brand", "userLimit": 0,
                            "admin": {"name": "", "email": "", "password": ""}});
    BTreeMap::from([
        ("health", (Allowed::Anyone, None)),
        ("ready", (Allowed::Anyone, None)),
        (
            "login",
            (Allowed::Anyone, Some(json!({"email": "", "password": ""}))),
        ),
        ("getSession", (Allowed::SignedIn, None)),
        ("logout", (Allowed::SignedIn, Some(json!({})))),
        ("getProfile", (Allowed::SignedIn, None)),
        (
            "changeOwnPassword",
            (
                Allowed::SignedIn,
                Some(json!({"currentPassword": "wrong-password", "newPassword": "new-password-1"})),
            ),
        ),
        ("getPreferences", (Allowed::SignedIn, None)),
        (
            "savePreferences",
            (
                Allowed::PreferenceEditors,
                Some(json!({"theme": "dark", "landingPage": "not a path"})),
            ),
        ),
        ("getOrganisation", (Allowed::TenantMembers, None)),
        ("getGetStarted", (Allowed::TenantMembers, None)),
        (
            "updateGetStarted",
            (Allowed::TenantMembers, Some(json!({"dismissed": "no"}))),
        ),
        (
            "updateOrganisation",
            (Allowed::OrgAdmins, Some(json!({"name": ""}))),
        ),
        ("uploadOrganisationLogo", (Allowed::OrgAdmins, None)),
        ("removeOrganisationLogo", (Allowed::OrgAdmins, None)),
        ("getOrganisationLogo", (Allowed::TenantMembers, None)),
        ("listOtherAccounts", (Allowed::OrgAdmins, None)),
        (
            "manageOrgUser",
            (
                Allowed::OrgAdmins,
                Some(json!({"action": "removeuser", "user_id": none})),
            ),
        ),
        (
            "resetOrgUserPassword",
            (
                Allowed::OrgAdmins,
                Some(json!({"action": "resetorguserpassword", "email": "", "new_password": ""})),
            ),
        ),
        ("listTenants", (Allowed::Platform, None)),
        ("createTenant", (Allowed::Platform, Some(bad_tenant))),
        ("suspendTenant", (Allowed::Platform, Some(json!({})))),
        (
            "updateTenantLimits",
            (Allowed::Platform, Some(json!({"userLimit": 5}))),
        ),
        ("reactivateTenant", (Allowed::Platform, Some(json!({})))),
        ("listProducts", (Allowed::BrandAndClientMembers, None)),
        (
            "createProduct",
            (
                Allowed::BrandMembersAndClientAdmins,
                Some(json!({"product_name": "", "skuid": "", "gtin": ""})),
            ),
        ),
        ("getProduct", (Allowed::BrandAndClientMembers, None)),
        (
            "updateProduct",
            (Allowed::BrandEditorsAndClientAdmins, Some(json!({}))),
        ),
        (
            "archiveProduct",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "createCodeJob",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"product_id": "00000000-0000-0000-0000-000000000000", "quantity": 1})),
            ),
        ),
        (
            "importProducts",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "exportProducts",
            (Allowed::BrandMembersAndClientAdmins, None),
        ),
        (
            "addProductImage",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        ("getProductImage", (Allowed::BrandAndClientMembers, None)),
        (
            "removeProductImage",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "listLabelTemplates",
            (Allowed::BrandMembersAndClientAdmins, None),
        ),
        (
            "createLabelTemplate",
            (
                Allowed::BrandMembersAndClientAdmins,
                Some(json!({"name": "", "design": {}})),
            ),
        ),
        (
            "getLabelTemplate",
            (Allowed::BrandMembersAndClientAdmins, None),
        ),
        (
            "updateLabelTemplate",
            (
                Allowed::BrandMembersAndClientAdmins,
                Some(json!({"name": "", "design": {}})),
            ),
        ),
        (
            "deleteLabelTemplate",
            (Allowed::BrandMembersAndClientAdmins, None),
        ),
        (
            "previewLabel",
            (
                Allowed::BrandMembersAndClientAdmins,
                Some(json!({"design": {}})),
            ),
        ),
        (
            "createPrintJob",
            (
                Allowed::OrgAdmins,
                Some(
                    json!({"template_id": "00000000-0000-0000-0000-000000000000",
                            "code_job_id": "00000000-0000-0000-0000-000000000000",
                            "format": "pdf"}),
                ),
            ),
        ),
        ("reprintPrintJob", (Allowed::OrgAdmins, None)),
        ("listPrintJobs", (Allowed::OrgAdmins, None)),
        ("getPrintJob", (Allowed::OrgAdmins, None)),
        ("downloadPrintOutput", (Allowed::OrgAdmins, None)),
        ("listCodeJobs", (Allowed::BrandAndClientMembers, None)),
        ("getCodeSettings", (Allowed::BrandEditors, None)),
        (
            "updateCodeSettings",
            (
                Allowed::BrandAdmins,
                Some(json!({"resolver_base": "not a url"})),
            ),
        ),
        ("getCodeJob", (Allowed::BrandAndClientMembers, None)),
        (
            "downloadCodesCsv",
            (Allowed::BrandEditorsAndClientMembers, None),
        ),
        (
            "downloadCodesZip",
            (Allowed::BrandEditorsAndClientMembers, None),
        ),
        ("downloadCodesBulk", (Allowed::ClientBMembers, None)),
        ("summarizeCodesBulk", (Allowed::ClientBMembers, None)),
        ("listCodeLots", (Allowed::BrandAndClientMembers, None)),
        ("brandScans", (Allowed::BrandMembersAndPlatform, None)),
        ("codeScans", (Allowed::BrandMembers, None)),
        ("scanAnalytics", (Allowed::BrandMembers, None)),
        ("listPassports", (Allowed::BrandMembers, None)),
        ("getPassport", (Allowed::BrandMembers, None)),
        ("savePassport", (Allowed::BrandEditors, Some(json!({})))),
        ("listPassportVersions", (Allowed::BrandMembers, None)),
        ("getPassportVersion", (Allowed::BrandMembers, None)),
        ("getScanSettings", (Allowed::BrandMembers, None)),
        (
            "updateScanSettings",
            (
                Allowed::BrandAdmins,
                Some(
                    json!({"suspicious_scan_count": 0, "suspicious_distance_km": 1, "suspicious_window_hours": 1}),
                ),
            ),
        ),
        ("adminScans", (Allowed::Platform, None)),
        ("sessionsData", (Allowed::BrandMembers, None)),
        ("usersData", (Allowed::BrandMembers, None)),
        ("listReviews", (Allowed::BrandMembers, None)),
        (
            "updateReview",
            (Allowed::BrandEditors, Some(json!({"hidden": true}))),
        ),
        ("productJourney", (Allowed::BrandAndClientMembers, None)),
        ("traceability", (Allowed::BrandAndClientMembers, None)),
        ("exportEpcisEvents", (Allowed::BrandAndClientMembers, None)),
        (
            "recordEpcisStep",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"step": "packing", "skuid": "", "location": ""})),
            ),
        ),
        (
            "captureEpcis",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"type": "EPCISDocument"})),
            ),
        ),
        ("listCompanies", (Allowed::ClientAMembers, None)),
        ("getClientOverview", (Allowed::ClientMembers, None)),
        (
            "createCompany",
            (
                Allowed::ClientAAdmins,
                Some(json!({"cin": "", "name": "", "registered_address": ""})),
            ),
        ),
        ("getCompanyOverview", (Allowed::ClientAMembers, None)),
        (
            "createBatchUpdate",
            (Allowed::ClientMembers, Some(json!({"gtin": ""}))),
        ),
        ("listBatchUpdates", (Allowed::ClientMembers, None)),
        ("getBatchUpdate", (Allowed::ClientMembers, None)),
        ("getBatchUpdateResult", (Allowed::ClientMembers, None)),
        ("getBatchUpdateTemplateCsv", (Allowed::ClientMembers, None)),
        ("getBatchUpdateTemplateXlsx", (Allowed::ClientMembers, None)),
        // The lot register (issue 22).
        ("listLots", (Allowed::BrandAndClientMembers, None)),
        ("getLot", (Allowed::BrandAndClientMembers, None)),
        (
            "createLot",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"product_id": none, "number": "L1"})),
            ),
        ),
        (
            "changeLotStatus",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"status": "held", "reason": "access walk"})),
            ),
        ),
        // Quality (issue 22): members inspect and read, editors run CAPAs.
        (
            "createInspection",
            (
                Allowed::BrandAndClientMembers,
                Some(
                    json!({"lot_id": none, "checks": [{"parameter": "pH", "min": "1", "value": "2"}]}),
                ),
            ),
        ),
        ("listInspections", (Allowed::BrandAndClientMembers, None)),
        ("getLotCertificate", (Allowed::BrandAndClientMembers, None)),
        (
            "createNonconformance",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"title": "", "description": "x", "severity": "minor"})),
            ),
        ),
        (
            "listNonconformances",
            (Allowed::BrandAndClientMembers, None),
        ),
        (
            "updateNonconformance",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"version": 1, "state": "investigating"})),
            ),
        ),
        // Parties (issue 23): every member reads suppliers and customers;
        // brand admins and managers and client admins add them.
        ("listSuppliers", (Allowed::BrandAndClientMembers, None)),
        ("getSupplier", (Allowed::BrandAndClientMembers, None)),
        (
            "createSupplier",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"name": "", "country": ""})),
            ),
        ),
        ("listCustomers", (Allowed::BrandAndClientMembers, None)),
        ("getCustomer", (Allowed::BrandAndClientMembers, None)),
        (
            "createCustomer",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"name": "", "country": ""})),
            ),
        ),
        // Inventory (issue 22): members (brands' and clients') record moves
        // and reservations and read; brand admins and managers and client
        // admins also set locations and reorder rules.
        ("listLocations", (Allowed::BrandAndClientMembers, None)),
        (
            "createLocation",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"code": "", "name": "", "kind": "bin"})),
            ),
        ),
        (
            "createStockMove",
            (
                Allowed::BrandAndClientMembers,
                Some(json!({"product_id": none, "lot_id": none, "quantity": "0",
                            "to_location_id": none, "reason": "receipt"})),
            ),
        ),
        ("listStockMoves", (Allowed::BrandAndClientMembers, None)),
        ("listStock", (Allowed::BrandAndClientMembers, None)),
        ("getStockValuation", (Allowed::BrandAndClientMembers, None)),
        (
            "listStockReservations",
            (Allowed::BrandAndClientMembers, None),
        ),
        (
            "createStockReservation",
            (
                Allowed::BrandAndClientMembers,
                Some(json!({"product_id": none, "quantity": "0", "reference": ""})),
            ),
        ),
        (
            "releaseStockReservation",
            (Allowed::BrandAndClientMembers, None),
        ),
        ("listReorderRules", (Allowed::BrandAndClientMembers, None)),
        (
            "setReorderRule",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"location_id": none, "min_quantity": "2", "max_quantity": "1"})),
            ),
        ),
        ("getReplenishment", (Allowed::BrandAndClientMembers, None)),
        // Logistics (issue 23): members create, ship, deliver and read
        // shipments; brand admins and managers and client admins also
        // cancel drafts; every organisation's admins set the GS1 prefix.
        (
            "updateOrganisationGs1",
            (Allowed::OrgAdmins, Some(json!({"company_prefix": "1"}))),
        ),
        ("listShipments", (Allowed::BrandAndClientMembers, None)),
        (
            "createShipment",
            (
                Allowed::BrandAndClientMembers,
                Some(json!({"customer_id": none, "from_location_id": none, "lines": []})),
            ),
        ),
        ("getShipment", (Allowed::BrandAndClientMembers, None)),
        ("shipShipment", (Allowed::BrandAndClientMembers, None)),
        ("deliverShipment", (Allowed::BrandAndClientMembers, None)),
        (
            "cancelShipment",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        ("getShipmentLabel", (Allowed::BrandAndClientMembers, None)),
        // Manufacturing (issue 23): members read, start and complete
        // orders; brand admins and managers and client admins also create
        // BOMs and orders and cancel them.
        (
            "createBom",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"product_id": none, "output_quantity": "0", "components": []})),
            ),
        ),
        ("listBoms", (Allowed::BrandAndClientMembers, None)),
        (
            "createManufacturingOrder",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(
                    json!({"product_id": none, "quantity": "0", "location_id": none,
                            "output_lot_number": "L1"}),
                ),
            ),
        ),
        (
            "listManufacturingOrders",
            (Allowed::BrandAndClientMembers, None),
        ),
        (
            "getManufacturingOrder",
            (Allowed::BrandAndClientMembers, None),
        ),
        (
            "startManufacturingOrder",
            (Allowed::BrandAndClientMembers, None),
        ),
        (
            "cancelManufacturingOrder",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "completeManufacturingOrder",
            (
                Allowed::BrandAndClientMembers,
                Some(json!({"produced_quantity": "0"})),
            ),
        ),
        // Procurement (issue 23): members read and receive; brand admins and
        // managers and client admins order, bill and approve.
        ("listPurchaseOrders", (Allowed::BrandAndClientMembers, None)),
        ("getPurchaseOrder", (Allowed::BrandAndClientMembers, None)),
        (
            "createPurchaseOrder",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"supplier_id": none, "expected_on": "2030-01-01",
                            "currency": "EUR", "lines": []})),
            ),
        ),
        (
            "confirmPurchaseOrder",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "cancelPurchaseOrder",
            (Allowed::BrandEditorsAndClientAdmins, None),
        ),
        (
            "createPurchaseReceipt",
            (
                Allowed::BrandAndClientMembers,
                Some(json!({"location_id": none, "lines": []})),
            ),
        ),
        ("listSupplierBills", (Allowed::BrandAndClientMembers, None)),
        (
            "createSupplierBill",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"purchase_order_id": none, "number": "", "lines": []})),
            ),
        ),
        (
            "approveSupplierBill",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"reason": ""})),
            ),
        ),
        // Genealogy and recalls (issue 23): members read; brand editors and
        // client admins recall.
        ("getLotGenealogy", (Allowed::BrandAndClientMembers, None)),
        (
            "createRecall",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(json!({"lot_id": none, "reason": "access walk"})),
            ),
        ),
        ("listRecalls", (Allowed::BrandAndClientMembers, None)),
        ("getRecall", (Allowed::BrandAndClientMembers, None)),
        (
            "getRecallAffectedCsv",
            (Allowed::BrandAndClientMembers, None),
        ),
        // Pricing (issue 24): members read lists and ask for quotes; brand
        // admins and managers and client admins create and replace lists.
        ("listPriceLists", (Allowed::BrandAndClientMembers, None)),
        ("quotePrice", (Allowed::BrandAndClientMembers, None)),
        (
            "createPriceList",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(
                    json!({"name": "", "currency": "EUR", "valid_from": "2030-01-01",
                            "tiering": "volume", "items": []}),
                ),
            ),
        ),
        (
            "updatePriceList",
            (
                Allowed::BrandEditorsAndClientAdmins,
                Some(
                    json!({"name": "", "currency": "EUR", "valid_from": "2030-01-01",
                            "tiering": "volume", "items": []}),
                ),
            ),
        ),
    ])
}

/// Every operation of the committed contract: (operation_id, method, path).
fn contract_operations() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(repo_root().join("openapi.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_mapping().unwrap() {
        for (method, op) in item.as_mapping().unwrap() {
            // The public routes outside `/api` (tag `Public`: the resolver,
            // reviews and places from the scan page) are for anyone and
            // outside the policy; public_contract.rs tests them.
            let public = op["tags"]
                .as_sequence()
                .is_some_and(|t| t.iter().any(|t| t.as_str() == Some("Public")));
            if public {
                assert!(
                    !path.as_str().unwrap().starts_with("/api/"),
                    "{path:?} is under /api but tagged Public"
                );
                continue;
            }
            ops.push((
                op["operationId"].as_str().unwrap().to_string(),
                method.as_str().unwrap().to_uppercase(),
                path.as_str().unwrap().to_string(),
            ));
        }
    }
    ops
}

/// A URL for the operation: path parameters name nothing that exists, and
/// the spec's query actions are given.
fn concrete(path: &str) -> String {
    let path = path
        .replace("{client_id}", "no-such-tenant")
        .replace("{id}", "00000000-0000-0000-0000-000000000000")
        .replace("{product_id}", "00000000-0000-0000-0000-000000000000")
        .replace("{version}", "1")
        .replace("{image}", "00000000-0000-0000-0000-000000000000.png");
    if path == "/api/account-info" {
        format!("{path}?action=otheraccountinfo")
    } else if path == "/api/product-handler" {
        format!("{path}?action=allproducts")
    } else {
        path
    }
}

#[tokio::test]
async fn every_operation_as_every_kind_of_account() {
    let app = TestApp::spawn().await;
    let table = expectations();
    let ops = contract_operations();
    let missing: Vec<_> = ops
        .iter()
        .filter(|(id, _, _)| !table.contains_key(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "operations in openapi.yaml without an access expectation in tests/api/access.rs: {missing:?}"
    );
    assert_eq!(
        ops.len(),
        table.len(),
        "tests/api/access.rs lists operations the contract does not have"
    );

    let brand = app.brand().await;
    let client = app.tenant_named("clientA", TenantKind::Client).await;
    let client_b = app.tenant_named("clientB", TenantKind::Client).await;
    // The clients have every module, so that the policy alone decides here
    // (what a plan without a module does is tests/api/modules.rs's).
    sqlx::query("UPDATE platform.tenants SET modules = $1 WHERE id = ANY($2)")
        .bind(
            brandops::http::modules::MODULES
                .iter()
                .map(|(k, _)| *k)
                .collect::<Vec<_>>(),
        )
        .bind(vec![client.tenant.id, client_b.tenant.id])
        .execute(&app.owner)
        .await
        .unwrap();
    let mut failures = Vec::new();
    for who in EVERYONE {
        let email = match who {
            Who::Anonymous => None,
            Who::BrandAdmin => Some(brand.admin.clone()),
            Who::BrandManager => Some(app.account(&brand, Role::Manager).await),
            Who::BrandWorker => Some(app.account(&brand, Role::Worker).await),
            Who::ClientAdmin => Some(client.admin.clone()),
            Who::ClientEmployee => Some(app.account(&client, Role::Employee).await),
            Who::ClientBAdmin => Some(client_b.admin.clone()),
            Who::ClientBEmployee => Some(app.account(&client_b, Role::Employee).await),
            Who::PlatformAdmin => Some(app.platform_admin().await),
        };
        let caller = match &email {
            Some(email) => app.login(email).await,
            None => app.client(),
        };
        // Logout last: it ends the session the other calls use.
        let mut order: Vec<_> = ops.iter().collect();
        order.sort_by_key(|(id, _, _)| id == "logout");
        for (id, method, path) in order {
            let (rule, body) = &table[id.as_str()];
            let m = Method::from_bytes(method.as_bytes()).unwrap();
            let (status, answer) = caller.send(m, &concrete(path), body.clone()).await;
            // A wrong password (sign-in: 401, current password: 403) is an
            // answer of the operation itself: the caller got to call it.
            let was_allowed = !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
                || (status == StatusCode::UNAUTHORIZED && answer["code"] == "invalid_credentials")
                || (status == StatusCode::FORBIDDEN && answer["code"] == "wrong_password");
            let want = allowed(*rule, who);
            if was_allowed != want {
                failures.push(format!(
                    "{who:?}: {id} ({method} {path}) -> {status} {answer} (expected {})",
                    if want { "allowed" } else { "denied" }
                ));
                continue;
            }
            if !want {
                let code = if who == Who::Anonymous {
                    "unauthenticated"
                } else {
                    "forbidden"
                };
                if answer["code"] != code {
                    failures.push(format!(
                        "{who:?}: {id} denied with {answer}, expected code {code}"
                    ));
                }
            } else if body.is_some() && status.is_success() && id != "logout" {
                failures.push(format!(
                    "{who:?}: {id} changed something: {status} {answer}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Before issue 6 the API rule for `POST /api/platform/tenants` also granted
/// every POST below it. Now each operation has its own rule: the policy is
/// asked about the operation a request calls, never about a URL prefix, and
/// a path that reaches no operation is never allowed.
#[tokio::test]
async fn a_rule_covers_exactly_one_operation() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let platform = app.login(&app.platform_admin().await).await;
    // A tenant admin may call the organisation's own operations, and none
    // below another operation's URL.
    for path in [
        format!("/api/platform/tenants/{}/suspend", brand.client_id),
        "/api/platform/tenants".to_string(),
    ] {
        let (status, body) = admin.post(&path, json!({})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
    }
    // Paths under an operation's URL that no operation serves are 404s for
    // everybody, never an operation the caller happens to be allowed.
    for path in [
        "/api/organisation/x",
        "/api/me/preferences/extra",
        "/api/platform/tenants/x/suspend/now",
    ] {
        let (status, body) = platform.post(path, json!({})).await;
        assert!(
            matches!(
                status,
                StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
            ),
            "{path}: {status} {body}"
        );
    }
    let (status, _) = platform
        .post(
            &format!("/api/platform/tenants/{}/suspend", brand.client_id),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}

/// The decision cache is keyed by role, domain and operation: a signed-in
/// user sending thousands of distinct, long paths adds nothing to it.
#[tokio::test]
async fn odd_paths_do_not_grow_the_decision_cache() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    assert_eq!(admin.get("/api/organisation").await.0, StatusCode::OK);
    let before = app.state.access.cached_decisions();
    let long = "x".repeat(8_000);
    for i in 0..300 {
        let (status, _) = admin.get(&format!("/api/organisation/{long}{i}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = admin.get(&format!("/api/ORGANISATION{i}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    assert_eq!(admin.get("/api/organisation").await.0, StatusCode::OK);
    assert_eq!(app.state.access.cached_decisions(), before);
}

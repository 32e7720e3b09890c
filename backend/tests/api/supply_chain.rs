//! Issue 23's whole chain through the API, as a brand runs it: a purchase
//! order, its receipt into a quarantined lot, the QA release, a
//! manufacturing order whose output lot gets codes, a shipment with its SSCC
//! label, the genealogy both ways, and a recall of the supplier's lot that
//! reaches the output lot, the shipment's customer and the consumer who
//! scans a code of it.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, done_job, download, gtin, unique};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn created(c: &crate::helpers::Client, path: &str, body: Value) -> Value {
    let (status, v) = c.post(path, body).await;
    assert!(
        status == StatusCode::CREATED || status == StatusCode::OK,
        "{path}: {status} {v}"
    );
    v
}

#[tokio::test]
async fn from_a_suppliers_lot_to_a_consumers_scan_and_back() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, body) = admin
        .put(
            "/api/organisation/gs1",
            json!({"company_prefix": "0614141"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let base = created(
        &admin,
        "/api/products",
        json!({"product_name": "Active ingredient", "skuid": unique("API"), "gtin": gtin(),
               "requires_inspection": true}),
    )
    .await;
    let tablet = created(
        &admin,
        "/api/products",
        json!({"product_name": "Tablets 500 mg", "skuid": unique("TAB"), "gtin": gtin()}),
    )
    .await;
    let (base, tablet) = (id(&base), id(&tablet));
    let store = id(&created(
        &admin,
        "/api/locations",
        json!({"code": unique("WH"), "name": "Main store", "kind": "warehouse"}),
    )
    .await);
    let supplier = created(
        &admin,
        "/api/suppliers",
        json!({"name": "Chem Supplies GmbH", "country": "DE"}),
    )
    .await;

    // Purchase order -> confirm -> receipt: the lot arrives in quarantine.
    let order = created(
        &admin,
        "/api/purchase-orders",
        json!({"supplier_id": id(&supplier), "expected_on": "2030-01-15", "currency": "EUR",
               "lines": [{"product_id": base, "quantity": "100", "unit_price": "2.50"}]}),
    )
    .await;
    let order_id = id(&order);
    created(
        &admin,
        &format!("/api/purchase-orders/{order_id}/confirm"),
        json!({}),
    )
    .await;
    let line = order["lines"][0]["id"].as_str().unwrap();
    created(
        &admin,
        &format!("/api/purchase-orders/{order_id}/receipts"),
        json!({"location_id": store, "lines": [{"line_id": line, "quantity": "100",
               "lot_number": "SUP-1", "expires_on": "2031-06-30"}]}),
    )
    .await;
    let (_, lots) = admin.get(&format!("/api/lots?product_id={base}")).await;
    let supplier_lot = lots["lots"][0].clone();
    assert_eq!(supplier_lot["number"], "SUP-1");
    assert_eq!(supplier_lot["status"], "quarantine");
    let supplier_lot = id(&supplier_lot);

    // A quarantined lot cannot be consumed; QA releases it.
    created(
        &admin,
        "/api/boms",
        json!({"product_id": tablet, "output_quantity": "1",
               "components": [{"product_id": base, "quantity": "2"}]}),
    )
    .await;
    let mo = created(
        &admin,
        "/api/manufacturing-orders",
        json!({"product_id": tablet, "quantity": "10", "location_id": store,
               "output_lot_number": "TAB-1", "expires_on": "2030-12-31"}),
    )
    .await;
    let mo = id(&mo);
    created(
        &admin,
        &format!("/api/manufacturing-orders/{mo}/start"),
        json!({}),
    )
    .await;
    let (status, short) = admin
        .post(
            &format!("/api/manufacturing-orders/{mo}/complete"),
            json!({"produced_quantity": "10"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{short}");
    assert_eq!(short["code"], "insufficient_stock", "{short}");
    let inspection = created(
        &admin,
        "/api/inspections",
        json!({"lot_id": supplier_lot, "checks": [
            {"parameter": "Assay", "min": "98", "max": "102", "value": "99.6"}]}),
    )
    .await;
    assert_eq!(inspection["lot_status"], "released", "{inspection}");

    // Manufacturing: 20 of the supplier's lot become 10 tablets, coded.
    let done = created(
        &admin,
        &format!("/api/manufacturing-orders/{mo}/complete"),
        json!({"produced_quantity": "10", "codes": 4}),
    )
    .await;
    let job = done["code_job_id"]
        .as_str()
        .expect("a code job")
        .to_string();
    done_job(&admin, &format!("/api/code-jobs/{job}")).await;
    let (status, _, csv) = download(&admin, &format!("/api/code-jobs/{job}/codes.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let uris: Vec<String> = String::from_utf8(csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().to_string())
        .collect();
    assert_eq!(uris.len(), 4);
    let (_, lots) = admin.get(&format!("/api/lots?product_id={tablet}")).await;
    let tablet_lot = id(&lots["lots"][0]);

    // Shipment with its SSCC and label.
    let customer = created(
        &admin,
        "/api/customers",
        json!({"name": "City Pharmacy", "country": "IN"}),
    )
    .await;
    let shipment = created(
        &admin,
        "/api/shipments",
        json!({"customer_id": id(&customer), "from_location_id": store,
               "lines": [{"product_id": tablet, "quantity": "4"}]}),
    )
    .await;
    let shipment = id(&shipment);
    let shipped = created(
        &admin,
        &format!("/api/shipments/{shipment}/ship"),
        json!({}),
    )
    .await;
    let sscc = shipped["packages"][0]["sscc"].as_str().unwrap().to_string();
    // The extension digit, then the company prefix.
    assert_eq!((sscc.len(), &sscc[1..8]), (18, "0614141"), "{sscc}");
    assert!(brandops::gs1::check_digit_ok(&sscc), "{sscc}");
    let (status, content_type, pdf) =
        download(&admin, &format!("/api/shipments/{shipment}/label.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        content_type.starts_with("application/pdf"),
        "{content_type}"
    );
    assert!(pdf.starts_with(b"%PDF"));

    // Genealogy both ways.
    let (status, down) = admin
        .get(&format!("/api/lots/{supplier_lot}/genealogy"))
        .await;
    assert_eq!(status, StatusCode::OK, "{down}");
    assert!(down.to_string().contains("TAB-1"), "{down}");
    assert!(down.to_string().contains("City Pharmacy"), "{down}");
    let (_, up) = admin
        .get(&format!("/api/lots/{tablet_lot}/genealogy"))
        .await;
    assert!(up["upstream"].to_string().contains("SUP-1"), "{up}");
    assert!(
        up["upstream"].to_string().contains("Chem Supplies GmbH"),
        "{up}"
    );

    // The consumer's scan before and after the supplier's lot is recalled.
    let (_, before) = crate::scans::scan(&uris[0], "203.0.113.60").await;
    assert_eq!(before["lot_status"], "released", "{before}");
    let recall = created(
        &admin,
        "/api/recalls",
        json!({"lot_id": supplier_lot, "reason": "Supplier reported contamination"}),
    )
    .await;
    let recalled: Vec<&str> = recall["lots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["number"].as_str().unwrap())
        .collect();
    assert!(
        recalled.contains(&"SUP-1") && recalled.contains(&"TAB-1"),
        "{recall}"
    );
    assert_eq!(recall["customers"][0]["name"], "City Pharmacy", "{recall}");
    assert_eq!(recall["customers"][0]["quantity"], "4", "{recall}");
    let html = crate::scans::scan_page(&uris[1]).await;
    assert!(
        html.contains("This product has been recalled. Do not use it."),
        "{html}"
    );
    let (_, after) = crate::scans::scan(&uris[2], "203.0.113.61").await;
    assert_eq!(after["lot_status"], "recalled", "{after}");
}

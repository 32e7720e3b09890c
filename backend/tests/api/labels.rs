//! Labels through the API: templates checked by the renderer, the live
//! preview decodes to the code's URI, print jobs render a code job's codes
//! as PDF (decoded back from `pdftoppm`'s images) and ZPL, reprints keep
//! the design, and other tenants see none of it. (The renderer's own tests,
//! in `src/labels/render/tests.rs`, cover every layout, sheet and GS1 rule.)

use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use rxing::{BarcodeFormat, DecodeHints, RXingResultMetadataType, RXingResultMetadataValue};
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, assert_isolated, assert_isolated_between, create_product, done_job, download,
    generate_codes, gtin, unique,
};

fn design(width: f64, height: f64, symbology: &str, sheet: &str) -> Value {
    json!({"width_mm": width, "height_mm": height, "symbology": symbology, "sheet": sheet,
           "fields": {"product_name": true, "gtin": true, "lot": true, "expiry": true, "serial": true},
           "font_size_pt": 7, "margin_mm": 1.5})
}

async fn template(c: &Client, name: &str, design: Value) -> String {
    let (status, t) = c
        .post(
            "/api/label-templates",
            json!({"name": name, "design": design}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    t["id"].as_str().unwrap().to_string()
}

/// A product and a done code job of `n` codes with a lot; its id and CSV
/// rows.
async fn codes(c: &Client, n: u32) -> (String, Vec<Vec<String>>) {
    let p = create_product(c, "Café <b>Crème</b> 250 g", "LBL").await;
    let job = generate_codes(
        c,
        json!({"product_id": p.id, "quantity": n,
               "lot": {"number": "B-42", "expires_on": "2027-06-30"}}),
    )
    .await;
    (job.id, job.rows)
}

/// The QR codes in a PNG, decoded by rqrr.
fn qr_in_png(png: &[u8]) -> Vec<String> {
    let img = image::load_from_memory(png).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(img);
    prepared
        .detect_grids()
        .iter()
        .map(|g| g.decode().expect("a QR code that decodes").1)
        .collect()
}

/// The barcode of `format` in a PNG, decoded by rxing: its text and
/// symbology identifier.
fn rxing_in_png(png: &[u8], format: BarcodeFormat) -> (String, String) {
    let img = image::load_from_memory(png).unwrap().to_luma8();
    let (w, h) = img.dimensions();
    let result = rxing::helpers::detect_in_luma_with_hints(
        img.into_raw(),
        w,
        h,
        Some(format),
        &mut DecodeHints::default(),
    )
    .unwrap_or_else(|e| panic!("no {format:?} found: {e}"));
    let id = match result
        .getRXingResultMetadata()
        .get(&RXingResultMetadataType::SYMBOLOGY_IDENTIFIER)
    {
        Some(RXingResultMetadataValue::SymbologyIdentifier(id)) => id.clone(),
        other => panic!("no symbology identifier: {other:?}"),
    };
    (result.getText().to_string(), id)
}

#[tokio::test]
async fn templates_are_checked_by_the_renderer() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker = app
        .login(&app.account(&brand, brandops::accounts::Role::Worker).await)
        .await;
    let id = template(
        &worker,
        "<i>Shelf</i> 50×30",
        design(50.0, 30.0, "qr", "single"),
    )
    .await;
    let (_, t) = worker.get(&format!("/api/label-templates/{id}")).await;
    assert_eq!(t["name"], "<i>Shelf</i> 50×30", "stored as text");
    assert_eq!(t["design"]["sheet"], "single");

    for (body, why) in [
        (
            design(12.0, 10.0, "qr", "single"),
            "too small for a QR code and five lines",
        ),
        (
            design(50.0, 30.0, "qr", "a4_3x8"),
            "not the sheet's label size",
        ),
        (design(400.0, 30.0, "qr", "single"), "too wide"),
        (json!({"width_mm": 50}), "incomplete"),
    ] {
        let (status, answer) = worker
            .post(
                "/api/label-templates",
                json!({"name": unique("t"), "design": body}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| e.len() > 10),
            "{answer}"
        );
    }
    let (status, _) = worker
        .post(
            "/api/label-templates",
            json!({"name": "<I>SHELF</I> 50×30", "design": design(70.0, 37.0, "qr", "a4_3x8")}),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "names are unique whatever the case"
    );

    let (status, t) = worker
        .put(
            &format!("/api/label-templates/{id}"),
            json!({"name": "Sheet A4", "design": design(70.0, 37.0, "datamatrix", "a4_3x8")}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["design"]["symbology"], "datamatrix");
    let (_, list) = worker.get("/api/label-templates").await;
    assert_eq!(list["templates"].as_array().unwrap().len(), 1);
    let (status, _) = worker
        .send(
            reqwest::Method::DELETE,
            &format!("/api/label-templates/{id}"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = worker.get(&format!("/api/label-templates/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_preview_carries_the_codes_uri_and_gs1_data() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (job, lines) = codes(&admin, 3).await;
    let preview = async |body: Value| {
        let resp = admin
            .http
            .post(admin.url("/api/label-templates/preview"))
            .header("x-csrf-token", admin.csrf.clone().unwrap())
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(resp.headers()["content-type"], "image/png");
        resp.bytes().await.unwrap().to_vec()
    };
    let png =
        preview(json!({"design": design(50.0, 30.0, "qr", "single"), "code_job_id": job})).await;
    assert_eq!(qr_in_png(&png), [lines[0][4].clone()]);

    let png =
        preview(json!({"design": design(50.0, 30.0, "datamatrix", "single"), "code_job_id": job}))
            .await;
    let (text, symbology) = rxing_in_png(&png, BarcodeFormat::DATA_MATRIX);
    assert_eq!(symbology, "]d2");
    let gtin = &lines[0][0];
    let serial = &lines[0][1];
    assert_eq!(text, format!("01{gtin}1727063010B-42\u{1d}21{serial}"));

    // Without a code job: a sample code on this server's resolver.
    let png = preview(json!({"design": design(50.0, 30.0, "qr", "single")})).await;
    let base = app.state.settings.public_url().to_string();
    assert!(qr_in_png(&png)[0].starts_with(&format!("{base}/01/09506000134352/10/LOT-2026A/21/")));
}

#[tokio::test]
async fn a_print_job_renders_every_code_and_decodes_to_its_uri() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (job, lines) = codes(&admin, 4).await;
    let single = template(&admin, "Thermal 50×30", design(50.0, 30.0, "qr", "single")).await;

    let (status, print) = admin
        .post(
            "/api/print-jobs",
            json!({"template_id": single, "code_job_id": job, "format": "pdf"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{print}");
    assert_eq!(print["total"], 4);
    let id = print["id"].as_str().unwrap().to_string();
    let done = done_job(&admin, &format!("/api/print-jobs/{id}")).await;
    assert_eq!(done["printed"], 4);
    let (status, kind, pdf) = download(&admin, &format!("/api/print-jobs/{id}/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/pdf");
    assert_eq!(done["output_bytes"], pdf.len());

    // One label per page: pdftoppm's image of page i holds code i's URI.
    let dir = std::env::temp_dir().join(format!("brandops-labels-{id}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("labels.pdf"), &pdf).unwrap();
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "300", "-png"])
        .arg(dir.join("labels.pdf"))
        .arg(dir.join("page"))
        .output()
        .expect("pdftoppm (Debian's poppler-utils) must be installed");
    assert!(out.status.success(), "{out:?}");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 4);
    for (page, line) in pages.iter().zip(&lines) {
        assert_eq!(
            qr_in_png(&std::fs::read(page).unwrap()),
            [line[4].clone()],
            "{page:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();

    // ZPL with a GS1 DataMatrix: one format per code, with its data.
    let dm = template(
        &admin,
        "Zebra DM",
        design(50.0, 30.0, "datamatrix", "single"),
    )
    .await;
    let (_, print) = admin
        .post(
            "/api/print-jobs",
            json!({"template_id": dm, "code_job_id": job, "format": "zpl"}),
        )
        .await;
    let zpl_id = print["id"].as_str().unwrap().to_string();
    done_job(&admin, &format!("/api/print-jobs/{zpl_id}")).await;
    let (status, kind, zpl) = download(&admin, &format!("/api/print-jobs/{zpl_id}/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/plain; charset=utf-8");
    let zpl = String::from_utf8(zpl).unwrap();
    assert_eq!(zpl.matches("^XA").count(), 4);
    assert_eq!(zpl.matches("^XZ").count(), 4);
    assert_eq!(zpl.matches("^BX").count(), 4);
    for line in &lines {
        let (gtin, serial) = (&line[0], &line[1]);
        assert!(
            zpl.contains(&format!("_101{gtin}1727063010B-42_121{serial}")),
            "{zpl}"
        );
    }

    // A reprint keeps the design it was made with, whatever the template
    // became since.
    let (status, _) = admin
        .put(
            &format!("/api/label-templates/{dm}"),
            json!({"name": "Zebra QR", "design": design(60.0, 40.0, "qr", "single")}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, again) = admin
        .post(&format!("/api/print-jobs/{zpl_id}/reprint"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    assert_eq!(again["reprint_of"], zpl_id.as_str());
    let again_id = again["id"].as_str().unwrap().to_string();
    done_job(&admin, &format!("/api/print-jobs/{again_id}")).await;
    let (_, _, zpl_again) = download(&admin, &format!("/api/print-jobs/{again_id}/output")).await;
    assert_eq!(String::from_utf8(zpl_again).unwrap(), zpl);
    let (_, list) = admin.get("/api/print-jobs").await;
    assert_eq!(list["jobs"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn print_jobs_need_a_done_code_job_and_a_template() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (job, _) = codes(&admin, 1).await;
    let t = template(&admin, "T", design(50.0, 30.0, "qr", "single")).await;
    // A code job still running.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.code_jobs SET status = 'running', finished_at = NULL WHERE id = '{job}'",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, body) = admin
        .post(
            "/api/print-jobs",
            json!({"template_id": t, "code_job_id": job, "format": "pdf"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    for body in [
        json!({"template_id": uuid::Uuid::new_v4(), "code_job_id": job, "format": "pdf"}),
        json!({"template_id": t, "code_job_id": uuid::Uuid::new_v4(), "format": "pdf"}),
    ] {
        let (status, _) = admin.post("/api/print-jobs", body).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let (status, _) = admin
        .post(
            "/api/print-jobs",
            json!({"template_id": t, "code_job_id": job, "format": "eps"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let printed = app.rows(&brand, "print_jobs").await;
    assert_eq!(printed, 0);
}

#[tokio::test]
async fn another_tenant_cannot_see_templates_or_print_jobs() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| template(a, &unique("Mine"), design(50.0, 30.0, "qr", "single")).await,
        async |c, id| {
            vec![
                c.get("/api/label-templates").await,
                c.get(&format!("/api/label-templates/{id}")).await,
                c.put(
                    &format!("/api/label-templates/{id}"),
                    json!({"name": "Taken", "design": design(50.0, 30.0, "qr", "single")}),
                )
                .await,
            ]
        },
    )
    .await;
    assert_isolated(
        &app,
        async |a| {
            let (job, _) = codes(a, 2).await;
            let t = template(a, "P", design(50.0, 30.0, "qr", "single")).await;
            let (_, p) = a
                .post(
                    "/api/print-jobs",
                    json!({"template_id": t, "code_job_id": job, "format": "zpl"}),
                )
                .await;
            let id = p["id"].as_str().unwrap().to_string();
            done_job(a, &format!("/api/print-jobs/{id}")).await;
            id
        },
        async |c, id| {
            let (status, _, body) = download(c, &format!("/api/print-jobs/{id}/output")).await;
            vec![
                c.get("/api/print-jobs").await,
                c.get(&format!("/api/print-jobs/{id}")).await,
                c.post(&format!("/api/print-jobs/{id}/reprint"), json!({}))
                    .await,
                // The ZPL names no print job id: show its size instead.
                (
                    status,
                    Value::String(if status == StatusCode::OK {
                        id.to_string()
                    } else {
                        String::from_utf8_lossy(&body).to_string()
                    }),
                ),
            ]
        },
    )
    .await;
}

/// A done print job of `c`'s (a template, a product, a code job with a
/// lot); its id.
async fn printed(c: &Client) -> String {
    let (job, _) = codes(c, 2).await;
    let t = template(c, &unique("Pack"), design(50.0, 30.0, "qr", "single")).await;
    let (status, p) = c
        .post(
            "/api/print-jobs",
            json!({"template_id": t, "code_job_id": job, "format": "zpl"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{p}");
    let id = p["id"].as_str().unwrap().to_string();
    done_job(c, &format!("/api/print-jobs/{id}")).await;
    id
}

/// Pharmaceutical clients print their packs (issue 19): client A's admin
/// designs a template, previews and prints the codes of a product of one of
/// its companies, in a lot with its dates, downloads and reprints them.
/// Client employees have no label operations (the spec's /printer is
/// admins').
#[tokio::test]
async fn a_client_admin_prints_the_codes_of_a_companys_product() {
    let app = TestApp::spawn().await;
    let a = app.tenant_named("clientA", TenantKind::Client).await;
    let admin = app.login(&a.admin).await;
    let (status, company) = admin
        .post(
            "/api/companies",
            json!({"cin": "L24230MH1950PLC008311", "name": "Alpha Laboratories Ltd",
                   "registered_address": "Plot 12, MIDC, Andheri East, Mumbai 400093"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{company}");
    let (status, product) = admin
        .post(
            "/api/products",
            json!({"product_name": "Paracetamol 500 mg", "skuid": unique("PCM"), "gtin": gtin(),
                   "company_id": company["id"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{product}");
    let job = generate_codes(
        &admin,
        json!({"product_id": product["id"], "quantity": 3,
               "lot": {"number": "PCM-7", "manufactured_on": "2026-01-15", "expires_on": "2028-01-31"}}),
    )
    .await;

    let dm = template(
        &admin,
        "Carton DM",
        design(50.0, 30.0, "datamatrix", "single"),
    )
    .await;
    let resp = admin
        .http
        .post(admin.url("/api/label-templates/preview"))
        .header("x-csrf-token", admin.csrf.clone().unwrap())
        .json(&json!({"design": design(50.0, 30.0, "qr", "single"), "code_job_id": job.id}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let png = resp.bytes().await.unwrap();
    assert_eq!(qr_in_png(&png), [job.rows[0][4].clone()]);

    let (status, print) = admin
        .post(
            "/api/print-jobs",
            json!({"template_id": dm, "code_job_id": job.id, "format": "zpl"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{print}");
    let id = print["id"].as_str().unwrap().to_string();
    assert_eq!(
        done_job(&admin, &format!("/api/print-jobs/{id}")).await["printed"],
        3
    );
    let (status, _, zpl) = download(&admin, &format!("/api/print-jobs/{id}/output")).await;
    assert_eq!(status, StatusCode::OK);
    let zpl = String::from_utf8(zpl).unwrap();
    assert_eq!(zpl.matches("^XA").count(), 3);
    assert!(zpl.contains("Paracetamol 500 mg"), "{zpl}");
    for row in &job.rows {
        let (gtin, serial) = (&row[0], &row[1]);
        assert!(
            zpl.contains(&format!("_101{gtin}1728013110PCM-7_121{serial}")),
            "the lot and expiry of the client's batch: {zpl}"
        );
    }
    let (status, again) = admin
        .post(&format!("/api/print-jobs/{id}/reprint"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    let again = again["id"].as_str().unwrap().to_string();
    done_job(&admin, &format!("/api/print-jobs/{again}")).await;
    let (_, list) = admin.get("/api/print-jobs").await;
    assert_eq!(list["jobs"].as_array().unwrap().len(), 2);

    let employee = app
        .login(&app.account(&a, brandops::accounts::Role::Employee).await)
        .await;
    for path in [
        "/api/label-templates".to_string(),
        "/api/print-jobs".to_string(),
        format!("/api/print-jobs/{id}"),
    ] {
        let (status, body) = employee.get(&path).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
    }
}

/// Client A's templates and print jobs are client A's: client B's admin, whom
/// the policy lets call every label operation, sees and changes none of them.
#[tokio::test]
async fn another_client_cannot_see_templates_or_print_jobs() {
    let app = TestApp::spawn().await;
    let a = app.tenant_named("clientA", TenantKind::Client).await;
    let b = app.tenant_named("clientB", TenantKind::Client).await;
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    assert_isolated_between(
        &a,
        &b,
        async |a: &Client| template(a, &unique("Mine"), design(50.0, 30.0, "qr", "single")).await,
        async |c: &Client, id: &str| {
            vec![
                c.get("/api/label-templates").await,
                c.get(&format!("/api/label-templates/{id}")).await,
                c.put(
                    &format!("/api/label-templates/{id}"),
                    json!({"name": "Taken", "design": design(50.0, 30.0, "qr", "single")}),
                )
                .await,
            ]
        },
    )
    .await;
    assert_isolated_between(
        &a,
        &b,
        async |a: &Client| printed(a).await,
        async |c: &Client, id: &str| {
            let (status, _, body) = download(c, &format!("/api/print-jobs/{id}/output")).await;
            vec![
                c.get("/api/print-jobs").await,
                c.get(&format!("/api/print-jobs/{id}")).await,
                c.post(&format!("/api/print-jobs/{id}/reprint"), json!({}))
                    .await,
                (
                    status,
                    Value::String(if status == StatusCode::OK {
                        id.to_string()
                    } else {
                        String::from_utf8_lossy(&body).to_string()
                    }),
                ),
            ]
        },
    )
    .await;
}

//! Pricing (issue 24, ADR 0021): price lists (create, list, replace, every
//! refusal changing nothing, overlapping scopes refused, parallel
//! replacements), quotes through the API at every tier boundary of both
//! kinds, which list applies (customer group first, validity days
//! included), 409 `no_price`, who may do what, and isolation.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, create_product, slow_inserts, slow_updates,
};

/// A brand ready to price: its admin and two products.
struct Seller {
    app: TestApp,
    brand: TestTenant,
    admin: Client,
    tea: String,
    honey: String,
}

async fn setup() -> Seller {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let tea = create_product(&admin, "Green tea", "TEA").await.id;
    let honey = create_product(&admin, "Honey", "HON").await.id;
    Seller {
        app,
        brand,
        admin,
        tea,
        honey,
    }
}

/// Adds a customer, in `group` when given.
async fn customer(c: &Client, name: &str, group: Option<&str>) -> String {
    let mut body = json!({"name": name, "country": "DE"});
    if let Some(g) = group {
        body["group"] = json!(g);
    }
    let (status, made) = c.post("/api/customers", body).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made["id"].as_str().unwrap().to_string()
}

/// Breaks 1 / 10 / 50 at 10.00 / 9.00 / 8.00.
fn three_breaks() -> Value {
    json!([
        {"min_quantity": "1", "unit_price": "10.00"},
        {"min_quantity": "10", "unit_price": "9.00"},
        {"min_quantity": "50", "unit_price": "8.00"},
    ])
}

/// A list body: default scope, from 2026-01-01, open-ended, EUR.
fn list_body(name: &str, tiering: &str, product: &str, breaks: Value) -> Value {
    json!({"name": name, "currency": "EUR", "valid_from": "2026-01-01", "tiering": tiering,
           "items": [{"product_id": product, "breaks": breaks}]})
}

async fn create(c: &Client, body: Value) -> Value {
    let (status, made) = c.post("/api/price-lists", body).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn quote(c: &Client, query: &str) -> (StatusCode, Value) {
    c.get(&format!("/api/prices/quote?{query}")).await
}

async fn quoted(c: &Client, query: &str) -> Value {
    let (status, q) = quote(c, query).await;
    assert_eq!(status, StatusCode::OK, "{query}: {q}");
    q
}

async fn lists(c: &Client) -> Vec<Value> {
    let (status, body) = c.get("/api/price-lists").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["price_lists"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_list_is_created_listed_and_replaced_and_audited() {
    let s = setup().await;
    let mut body = list_body("Retail 2026", "volume", &s.tea, three_breaks());
    body["items"].as_array_mut().unwrap().push(
        json!({"product_id": s.honey, "breaks": [{"min_quantity": "0.5", "unit_price": "0.0125"}]}),
    );
    body["valid_to"] = json!("2026-12-31");
    let made = create(&s.admin, body.clone()).await;
    assert_eq!(made["name"], "Retail 2026");
    assert_eq!(made["currency"], "EUR");
    assert_eq!(made["minor_units"], 2);
    assert_eq!(made["valid_from"], "2026-01-01");
    assert_eq!(made["valid_to"], "2026-12-31");
    assert!(made.get("customer_group").is_none(), "{made}");
    assert_eq!(made["tiering"], "volume");
    assert_eq!(made["version"], 1);
    assert_eq!(made["items"][0]["product_id"], s.tea.as_str());
    assert_eq!(made["items"][0]["product_name"], "Green tea");
    assert_eq!(
        made["items"][0]["breaks"],
        json!([
            {"min_quantity": "1", "unit_price": "10.00"},
            {"min_quantity": "10", "unit_price": "9.00"},
            {"min_quantity": "50", "unit_price": "8.00"},
        ])
    );
    assert_eq!(
        made["items"][1]["breaks"],
        json!([{"min_quantity": "0.5", "unit_price": "0.0125"}])
    );
    let listed = lists(&s.admin).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0], made);

    // A replacement: another name, graduated, honey only.
    let replaced = list_body(
        "Retail 2026 (b)",
        "graduated",
        &s.honey,
        json!([{"min_quantity": "1", "unit_price": "4"}]),
    );
    let (status, after) = s
        .admin
        .put(&format!("/api/price-lists/{}", id(&made)), replaced)
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["version"], 2);
    assert_eq!(after["tiering"], "graduated");
    assert_eq!(after["items"].as_array().unwrap().len(), 1);
    assert_eq!(after["items"][0]["breaks"][0]["unit_price"], "4.00");
    assert!(after.get("valid_to").is_none(), "{after}");
    assert_eq!(lists(&s.admin).await, vec![after]);
    assert_eq!(s.app.rows(&s.brand, "price_breaks").await, 1);
    assert_eq!(
        s.app.audited(&s.brand, "pricing.price_list_created").await,
        1
    );
    assert_eq!(
        s.app.audited(&s.brand, "pricing.price_list_updated").await,
        1
    );
    // An unknown or malformed id.
    for bad in ["00000000-0000-0000-0000-000000000000", "not-an-id"] {
        let (status, body) = s
            .admin
            .put(
                &format!("/api/price-lists/{bad}"),
                list_body("X", "volume", &s.tea, three_breaks()),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
}

#[tokio::test]
async fn bad_lists_are_refused_with_a_reason_and_change_nothing() {
    let s = setup().await;
    let ok = || list_body("Retail", "volume", &s.tea, three_breaks());
    let archived = create_product(&s.admin, "Old tea", "OLD").await.id;
    let (status, _) = s
        .admin
        .send(
            reqwest::Method::DELETE,
            &format!("/api/products/{archived}"),
            None,
        )
        .await;
    assert!(status.is_success(), "{status}");
    let with = |f: &dyn Fn(&mut Value)| {
        let mut b = ok();
        f(&mut b);
        b
    };
    let cases: Vec<(Value, StatusCode, &str)> = vec![
        (
            with(&|b| b["currency"] = json!("EURO")),
            StatusCode::BAD_REQUEST,
            "currency must be an ISO 4217",
        ),
        (
            with(&|b| b["currency"] = json!("XAU")),
            StatusCode::BAD_REQUEST,
            "no minor unit",
        ),
        (
            with(&|b| b["valid_to"] = json!("2025-12-31")),
            StatusCode::BAD_REQUEST,
            "valid_to (2025-12-31) is before valid_from",
        ),
        (
            with(&|b| b["items"][0]["breaks"][1]["min_quantity"] = json!("1")),
            StatusCode::BAD_REQUEST,
            "items[1].breaks[2].min_quantity (1) must be above the break before it (1)",
        ),
        (
            with(&|b| b["items"][0]["breaks"][0]["min_quantity"] = json!("0")),
            StatusCode::BAD_REQUEST,
            "items[1].breaks[1].min_quantity must be more than 0",
        ),
        (
            with(&|b| b["items"][0]["breaks"][0]["unit_price"] = json!("-1")),
            StatusCode::BAD_REQUEST,
            "items[1].breaks[1].unit_price must be a decimal number",
        ),
        (
            with(&|b| b["items"][0]["breaks"][0]["unit_price"] = json!("1.1234567")),
            StatusCode::BAD_REQUEST,
            "6 after it",
        ),
        (
            with(&|b| b["items"][0]["breaks"][0]["unit_price"] = json!(1.5)),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            with(&|b| {
                b["tiering"] = json!("graduated");
                b["items"][0]["breaks"][1]["min_quantity"] = json!("10.5");
            }),
            StatusCode::BAD_REQUEST,
            "must be a whole number",
        ),
        (
            with(&|b| {
                let again = b["items"][0].clone();
                b["items"].as_array_mut().unwrap().push(again);
            }),
            StatusCode::BAD_REQUEST,
            "items[2] names the product items[1] names already",
        ),
        (
            with(&|b| b["items"][0]["product_id"] = json!(uuid::Uuid::new_v4())),
            StatusCode::NOT_FOUND,
            "items[1]: no such product in your organisation.",
        ),
        (
            with(&|b| b["items"][0]["product_id"] = json!(archived)),
            StatusCode::CONFLICT,
            "archived",
        ),
        (
            with(&|b| b["items"] = json!([])),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            with(&|b| b["items"][0]["breaks"] = json!([])),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            with(&|b| {
                b["items"][0]["breaks"] = json!(
                    (1..=21)
                        .map(|n| json!({"min_quantity": n.to_string(), "unit_price": "1"}))
                        .collect::<Vec<_>>()
                )
            }),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            with(&|b| b["tiering"] = json!("tiered")),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            with(&|b| b["customer_group"] = json!("Wholesale")),
            StatusCode::BAD_REQUEST,
            "customer_group must be 1 to 40 lower-case",
        ),
        (
            with(&|b| b["name"] = json!("  ")),
            StatusCode::BAD_REQUEST,
            "name is required",
        ),
    ];
    for (body, want, message) in &cases {
        let (status, answer) = s.admin.post("/api/price-lists", body.clone()).await;
        assert_eq!(status, *want, "{body}: {answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap_or_default()
                .contains(message),
            "{body}: {answer}"
        );
    }
    assert_eq!(s.app.rows(&s.brand, "price_lists").await, 0);
    // The same refusals on a replacement leave the list as it was.
    let made = create(&s.admin, ok()).await;
    for (body, want, _) in &cases {
        let (status, answer) = s
            .admin
            .put(&format!("/api/price-lists/{}", id(&made)), body.clone())
            .await;
        assert_eq!(status, *want, "{body}: {answer}");
    }
    assert_eq!(lists(&s.admin).await, vec![made]);
    assert_eq!(s.app.rows(&s.brand, "price_breaks").await, 3);
    assert_eq!(
        s.app.audited(&s.brand, "pricing.price_list_updated").await,
        0
    );
}

#[tokio::test]
async fn lists_of_one_scope_never_overlap() {
    let s = setup().await;
    let dated = |name: &str, from: &str, to: Option<&str>, group: Option<&str>, cur: &str| {
        let mut b = list_body(name, "volume", &s.tea, three_breaks());
        b["valid_from"] = json!(from);
        b["currency"] = json!(cur);
        if let Some(to) = to {
            b["valid_to"] = json!(to);
        }
        if let Some(g) = group {
            b["customer_group"] = json!(g);
        }
        b
    };
    let first = create(
        &s.admin,
        dated("H1", "2026-01-01", Some("2026-06-30"), None, "EUR"),
    )
    .await;
    // The next day on: fine; the same last day: refused, in any currency.
    create(&s.admin, dated("H2", "2026-07-01", None, None, "EUR")).await;
    for body in [
        dated("Clash", "2026-06-30", Some("2026-06-30"), None, "EUR"),
        dated("Clash", "2025-01-01", Some("2026-01-01"), None, "USD"),
        dated("Clash", "2027-01-01", None, None, "JPY"),
    ] {
        let (status, answer) = s.admin.post("/api/price-lists", body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        assert_eq!(answer["code"], "overlapping_price_list");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("of the default customers"),
            "{answer}"
        );
    }
    // Another scope may overlap the default lists.
    create(
        &s.admin,
        dated("Wholesale", "2026-01-01", None, Some("wholesale"), "EUR"),
    )
    .await;
    // A replacement may keep its own days, but not move onto another's.
    let (status, _) = s
        .admin
        .put(
            &format!("/api/price-lists/{}", id(&first)),
            dated("H1 again", "2026-01-01", Some("2026-06-30"), None, "EUR"),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = s
        .admin
        .put(
            &format!("/api/price-lists/{}", id(&first)),
            dated("H1 again", "2026-01-01", None, None, "EUR"),
        )
        .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("overlapping_price_list")),
        "{answer}"
    );
    assert_eq!(s.app.rows(&s.brand, "price_lists").await, 3);
}

#[tokio::test]
async fn parallel_creates_of_one_scope_leave_one_list() {
    let s = setup().await;
    slow_inserts(&s.app, &s.brand, "price_lists").await;
    let tries = (0..20).map(|i| {
        let body = list_body(&format!("Race {i}"), "volume", &s.tea, three_breaks());
        let admin = &s.admin;
        async move { admin.post("/api/price-lists", body).await.0 }
    });
    let statuses = futures::future::join_all(tries).await;
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::CREATED || *s == StatusCode::CONFLICT)
    );
    assert_eq!(s.app.rows(&s.brand, "price_lists").await, 1);
}

#[tokio::test]
async fn twenty_parallel_replacements_leave_one_whole_list() {
    let s = setup().await;
    let made = create(
        &s.admin,
        list_body("Start", "volume", &s.tea, three_breaks()),
    )
    .await;
    let path = format!("/api/price-lists/{}", id(&made));
    // Each replacement's update of the list row takes a while, so the
    // twenty truly overlap.
    slow_updates(&s.app, &s.brand, "price_lists").await;
    // Replacement i: name "v{i}", i + 1 breaks each at price i.
    let tries = (1..=20).map(|i| {
        let breaks: Vec<Value> = (1..=(i % 5 + 1))
            .map(|n| json!({"min_quantity": (n * 10).to_string(), "unit_price": format!("{i}.00")}))
            .collect();
        let body = list_body(&format!("v{i}"), "volume", &s.tea, json!(breaks));
        let (admin, path) = (&s.admin, &path);
        async move { admin.put(path, body).await }
    });
    let answers = futures::future::join_all(tries).await;
    assert!(
        answers.iter().all(|(s, _)| *s == StatusCode::OK),
        "{answers:?}"
    );
    let mut versions: Vec<i64> = answers
        .iter()
        .map(|(_, a)| a["version"].as_i64().unwrap())
        .collect();
    versions.sort_unstable();
    assert_eq!(
        versions,
        (2..=21).collect::<Vec<_>>(),
        "one after the other"
    );
    let now = lists(&s.admin).await;
    assert_eq!(now.len(), 1);
    let list = &now[0];
    assert_eq!(list["version"], 21);
    // Whole: the breaks are exactly those of the replacement named.
    let i: usize = list["name"].as_str().unwrap()[1..].parse().unwrap();
    let breaks = list["items"][0]["breaks"].as_array().unwrap();
    assert_eq!(breaks.len(), i % 5 + 1, "{list}");
    assert!(
        breaks.iter().all(|b| b["unit_price"] == format!("{i}.00")),
        "{list}"
    );
    assert_eq!(
        s.app.rows(&s.brand, "price_breaks").await,
        (i % 5 + 1) as i64
    );
    assert_eq!(
        s.app.audited(&s.brand, "pricing.price_list_updated").await,
        20
    );
}

#[tokio::test]
async fn quotes_at_every_tier_boundary_of_both_kinds() {
    let s = setup().await;
    create(
        &s.admin,
        list_body("Volume", "volume", &s.tea, three_breaks()),
    )
    .await;
    // Another scope for the graduated list, so that both apply somewhere.
    let mut graduated = list_body("Graduated", "graduated", &s.tea, three_breaks());
    graduated["customer_group"] = json!("graduated");
    create(&s.admin, graduated).await;
    let buyer = customer(&s.admin, "Graduated buyer", Some("graduated")).await;
    let on = "on=2026-03-01";
    for (q, volume, graduated) in [
        ("1", "10.00", "10.00"),
        ("9", "90.00", "90.00"),
        ("10", "90.00", "99.00"),
        ("11", "99.00", "108.00"),
        ("49", "441.00", "450.00"),
        ("50", "400.00", "458.00"),
        ("51", "408.00", "466.00"),
        ("9.5", "95.00", "94.50"),
        ("1000", "8000.00", "8058.00"),
    ] {
        let v = quoted(&s.admin, &format!("product_id={}&quantity={q}&{on}", s.tea)).await;
        assert_eq!(v["total"], volume, "volume {q}: {v}");
        assert_eq!(v["currency"], "EUR");
        assert_eq!(v["tiering"], "volume");
        let g = quoted(
            &s.admin,
            &format!("product_id={}&quantity={q}&customer_id={buyer}&{on}", s.tea),
        )
        .await;
        assert_eq!(g["total"], graduated, "graduated {q}: {g}");
        assert_eq!(g["tiering"], "graduated");
    }
    let v = quoted(&s.admin, &format!("product_id={}&quantity=10&{on}", s.tea)).await;
    assert_eq!(v["unit_price"], "9.00");
    assert_eq!(
        v["lines"],
        json!([{"from_quantity": "1", "to_quantity": "10", "quantity": "10",
                "min_quantity": "10", "unit_price": "9.00", "amount": "90.00"}])
    );
    let g = quoted(
        &s.admin,
        &format!("product_id={}&quantity=51&customer_id={buyer}&{on}", s.tea),
    )
    .await;
    assert_eq!(
        g["lines"],
        json!([
            {"from_quantity": "1", "to_quantity": "9", "quantity": "9",
             "min_quantity": "1", "unit_price": "10.00", "amount": "90.00"},
            {"from_quantity": "10", "to_quantity": "49", "quantity": "40",
             "min_quantity": "10", "unit_price": "9.00", "amount": "360.00"},
            {"from_quantity": "50", "to_quantity": "51", "quantity": "2",
             "min_quantity": "50", "unit_price": "8.00", "amount": "16.00"},
        ])
    );
    assert_eq!(g["unit_price"], "9.137255");
    assert_eq!(g["quantity"], "51");
    assert_eq!(g["on"], "2026-03-01");
    // Asked again with another quantity: priced again (erpnext#31747).
    let again = quoted(
        &s.admin,
        &format!("product_id={}&quantity=9&customer_id={buyer}&{on}", s.tea),
    )
    .await;
    assert_eq!(again["total"], "90.00");
}

#[tokio::test]
async fn money_is_exact_and_rounded_per_line_in_the_currency() {
    let s = setup().await;
    // 0.1 + 0.2 in a graduated list: one unit at each.
    let mut eur = list_body(
        "Cents",
        "graduated",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "0.1"}, {"min_quantity": "2", "unit_price": "0.2"}]),
    );
    eur["items"].as_array_mut().unwrap().push(
        json!({"product_id": s.honey, "breaks": [{"min_quantity": "1", "unit_price": "0.333333"}]}),
    );
    create(&s.admin, eur).await;
    let q = quoted(
        &s.admin,
        &format!("product_id={}&quantity=2&on=2026-01-01", s.tea),
    )
    .await;
    assert_eq!(
        (q["total"].as_str(), q["unit_price"].as_str()),
        (Some("0.30"), Some("0.15"))
    );
    let q = quoted(
        &s.admin,
        &format!("product_id={}&quantity=3&on=2026-01-01", s.honey),
    )
    .await;
    assert_eq!(q["total"], "1.00", "{q}");
    // JPY: no minor unit, half-up: 3 × 33.5 = 100.5 → 101.
    let mut yen = list_body(
        "Yen",
        "volume",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "33.5"}]),
    );
    yen["currency"] = json!("JPY");
    yen["customer_group"] = json!("japan");
    create(&s.admin, yen).await;
    let tokyo = customer(&s.admin, "Tokyo", Some("japan")).await;
    let q = quoted(
        &s.admin,
        &format!(
            "product_id={}&quantity=3&customer_id={tokyo}&on=2026-01-01",
            s.tea
        ),
    )
    .await;
    assert_eq!(
        (q["currency"].as_str(), q["total"].as_str()),
        (Some("JPY"), Some("101"))
    );
    assert_eq!(q["unit_price"], "33.5");
    // BHD: three places.
    let mut dinar = list_body(
        "Dinar",
        "volume",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "1.2345"}]),
    );
    dinar["currency"] = json!("BHD");
    dinar["customer_group"] = json!("bahrain");
    create(&s.admin, dinar).await;
    let manama = customer(&s.admin, "Manama", Some("bahrain")).await;
    let q = quoted(
        &s.admin,
        &format!(
            "product_id={}&quantity=1&customer_id={manama}&on=2026-01-01",
            s.tea
        ),
    )
    .await;
    assert_eq!(q["total"], "1.235");
}

#[tokio::test]
async fn the_customers_group_list_wins_within_its_days() {
    let s = setup().await;
    let mut default = list_body(
        "Default",
        "volume",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "10"}]),
    );
    default["valid_to"] = json!("2026-12-31");
    let default = create(&s.admin, default).await;
    let mut wholesale = list_body(
        "Wholesale Q2",
        "volume",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "7"}]),
    );
    wholesale["customer_group"] = json!("wholesale");
    wholesale["valid_from"] = json!("2026-04-01");
    wholesale["valid_to"] = json!("2026-06-30");
    let wholesale = create(&s.admin, wholesale).await;
    let trader = customer(&s.admin, "Trader", Some("wholesale")).await;
    let walk_in = customer(&s.admin, "Walk-in", None).await;
    let other_group = customer(&s.admin, "Retailer", Some("retail")).await;
    let price = async |who: Option<&str>, on: &str| {
        let mut query = format!("product_id={}&quantity=1&on={on}", s.tea);
        if let Some(c) = who {
            query.push_str(&format!("&customer_id={c}"));
        }
        quote(&s.admin, &query).await
    };
    // Inclusive edges of the group's list: the day before and after fall
    // back to the default list.
    for (on, want, list) in [
        ("2026-03-31", "10.00", &default),
        ("2026-04-01", "7.00", &wholesale),
        ("2026-06-30", "7.00", &wholesale),
        ("2026-07-01", "10.00", &default),
    ] {
        let (status, q) = price(Some(&trader), on).await;
        assert_eq!(status, StatusCode::OK, "{q}");
        assert_eq!(q["total"], want, "{on}");
        assert_eq!(q["price_list_id"], list["id"], "{on}");
    }
    for who in [None, Some(walk_in.as_str()), Some(other_group.as_str())] {
        let (_, q) = price(who, "2026-05-01").await;
        assert_eq!(q["total"], "10.00", "{who:?}");
    }
    // The default list's own edges: valid on its first and last day.
    for (on, ok) in [
        ("2025-12-31", false),
        ("2026-01-01", true),
        ("2026-12-31", true),
        ("2027-01-01", false),
    ] {
        let (status, q) = price(Some(&walk_in), on).await;
        if ok {
            assert_eq!(status, StatusCode::OK, "{on}: {q}");
        } else {
            assert_eq!(status, StatusCode::CONFLICT, "{on}: {q}");
            assert_eq!(q["code"], "no_price");
            assert!(q["error"].as_str().unwrap().contains(on), "{q}");
        }
    }
    // Without `on`: today. No list is valid in 2025, so move the default
    // list onto today and ask without a date.
    let today = chrono::Utc::now().date_naive();
    let mut moved = list_body(
        "Default",
        "volume",
        &s.tea,
        json!([{"min_quantity": "1", "unit_price": "12"}]),
    );
    moved["valid_from"] = json!(today.to_string());
    moved["valid_to"] = json!(today.to_string());
    let (status, body) = s
        .admin
        .put(&format!("/api/price-lists/{}", id(&default)), moved)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, q) = quote(&s.admin, &format!("product_id={}&quantity=1", s.tea)).await;
    assert_eq!(
        (status, q["total"].as_str()),
        (StatusCode::OK, Some("12.00")),
        "{q}"
    );
    assert_eq!(q["on"], today.to_string());
}

#[tokio::test]
async fn no_price_is_a_conflict_that_says_why() {
    let s = setup().await;
    let (status, q) = quote(
        &s.admin,
        &format!("product_id={}&quantity=1&on=2026-01-01", s.tea),
    )
    .await;
    assert_eq!(
        (status, q["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_price")),
        "{q}"
    );
    let mut body = list_body(
        "From five",
        "volume",
        &s.tea,
        json!([{"min_quantity": "5", "unit_price": "2"}]),
    );
    body["customer_group"] = json!("wholesale");
    create(&s.admin, body).await;
    create(
        &s.admin,
        list_body(
            "Default",
            "volume",
            &s.honey,
            json!([{"min_quantity": "1", "unit_price": "3"}]),
        ),
    )
    .await;
    let trader = customer(&s.admin, "Trader", Some("wholesale")).await;
    // Below the first break.
    let (status, q) = quote(
        &s.admin,
        &format!(
            "product_id={}&quantity=4.999&customer_id={trader}&on=2026-01-01",
            s.tea
        ),
    )
    .await;
    assert_eq!(
        (status, q["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_price")),
        "{q}"
    );
    assert!(q["error"].as_str().unwrap().contains("from 5 on"), "{q}");
    // The group's list applies and lacks honey: no fallback to the default.
    let (status, q) = quote(
        &s.admin,
        &format!(
            "product_id={}&quantity=1&customer_id={trader}&on=2026-01-01",
            s.honey
        ),
    )
    .await;
    assert_eq!(
        (status, q["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_price")),
        "{q}"
    );
    assert!(
        q["error"]
            .as_str()
            .unwrap()
            .contains("has no price for this product"),
        "{q}"
    );
    // Bad input and unknown things.
    for (query, want) in [
        (
            format!("product_id={}&quantity=0", s.tea),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("product_id={}&quantity=-1", s.tea),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("product_id={}&quantity=1e3", s.tea),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("product_id={}&quantity=1&on=2026-02-30", s.tea),
            StatusCode::BAD_REQUEST,
        ),
        (
            "product_id=nope&quantity=1".to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("product_id={}&quantity=1", uuid::Uuid::new_v4()),
            StatusCode::NOT_FOUND,
        ),
        (
            format!(
                "product_id={}&quantity=1&customer_id={}",
                s.tea,
                uuid::Uuid::new_v4()
            ),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (status, q) = quote(&s.admin, &query).await;
        assert_eq!(status, want, "{query}: {q}");
    }
}

#[tokio::test]
async fn workers_read_and_quote_but_never_edit_a_list() {
    let s = setup().await;
    let made = create(
        &s.admin,
        list_body("Retail", "volume", &s.tea, three_breaks()),
    )
    .await;
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    assert_eq!(lists(&worker).await.len(), 1);
    let q = quoted(
        &worker,
        &format!("product_id={}&quantity=10&on=2026-01-01", s.tea),
    )
    .await;
    assert_eq!(q["total"], "90.00");
    let (status, body) = worker
        .post(
            "/api/price-lists",
            list_body("Mine", "volume", &s.honey, three_breaks()),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden"))
    );
    let (status, _) = worker
        .put(
            &format!("/api/price-lists/{}", id(&made)),
            list_body("Cheaper", "volume", &s.tea, three_breaks()),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let manager = s
        .app
        .login(&s.app.account(&s.brand, Role::Manager).await)
        .await;
    let (status, body) = manager
        .put(
            &format!("/api/price-lists/{}", id(&made)),
            list_body("By the manager", "volume", &s.tea, three_breaks()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(lists(&s.admin).await[0]["name"], "By the manager");
}

#[tokio::test]
async fn markup_in_a_name_is_kept_as_text() {
    let s = setup().await;
    let name = "<script>alert(1)</script> & \"Sale\"";
    let made = create(&s.admin, list_body(name, "volume", &s.tea, three_breaks())).await;
    assert_eq!(made["name"], name);
    assert_eq!(lists(&s.admin).await[0]["name"], name);
    let q = quoted(
        &s.admin,
        &format!("product_id={}&quantity=1&on=2026-01-01", s.tea),
    )
    .await;
    assert_eq!(q["price_list_name"], name);
}

#[tokio::test]
async fn a_failed_write_leaves_neither_list_nor_audit_row() {
    let s = setup().await;
    // The list's row is written first, its breaks after it: make the breaks
    // fail and prove the list did not stay (one transaction).
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.price_breaks ADD CONSTRAINT test_no_breaks CHECK (unit_price < 0)",
        s.brand.schema
    )))
    .execute(&s.app.owner)
    .await
    .unwrap();
    let (status, _) = s
        .admin
        .post(
            "/api/price-lists",
            list_body("Half", "volume", &s.tea, three_breaks()),
        )
        .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(s.app.rows(&s.brand, "price_lists").await, 0);
    assert_eq!(s.app.rows(&s.brand, "price_list_items").await, 0);
    assert_eq!(
        s.app.audited(&s.brand, "pricing.price_list_created").await,
        0
    );
}

#[tokio::test]
async fn pricing_is_isolated() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let product = create_product(a, "Iso tea", "ISO").await.id;
            let buyer = customer(a, "Iso buyer", Some("iso")).await;
            let mut body = list_body("Iso list", "volume", &product, three_breaks());
            body["customer_group"] = json!("iso");
            let made = create(a, body).await;
            format!("{}|{}|{}", id(&made), product, buyer)
        },
        async |c, marker| {
            let parts: Vec<&str> = marker.split('|').collect();
            let (list, product, buyer) = (parts[0], parts[1], parts[2]);
            vec![
                c.get("/api/price-lists").await,
                c.put(
                    &format!("/api/price-lists/{list}"),
                    list_body("Taken over", "volume", product, three_breaks()),
                )
                .await,
                quote(
                    c,
                    &format!("product_id={product}&quantity=10&customer_id={buyer}&on=2026-01-01"),
                )
                .await,
                // B's own list naming A's product is refused too.
                c.post(
                    "/api/price-lists",
                    list_body("Borrowed", "volume", product, three_breaks()),
                )
                .await,
            ]
            .into_iter()
            .map(|(s, body)| {
                let text = body.to_string();
                let shown = text.contains(list);
                (s, if shown { json!(marker) } else { body })
            })
            .collect()
        },
    )
    .await;
}

#[tokio::test]
async fn a_list_larger_than_64_kib_is_taken_and_501_products_are_not() {
    let s = setup().await;
    let mut items = Vec::new();
    for i in 0..60 {
        let product = create_product(&s.admin, &format!("Bulk {i}"), "BLK")
            .await
            .id;
        let breaks: Vec<Value> = (1..=20)
            .map(|n| json!({"min_quantity": format!("{}.001", 100_000_000 + n), "unit_price": "100000000.000001"}))
            .collect();
        items.push(json!({"product_id": product, "breaks": breaks}));
    }
    let body = json!({"name": "Bulk", "currency": "EUR", "valid_from": "2026-01-01",
                      "tiering": "volume", "items": items});
    assert!(body.to_string().len() > 64 * 1024);
    let made = create(&s.admin, body).await;
    assert_eq!(made["items"].as_array().unwrap().len(), 60);
    assert_eq!(s.app.rows(&s.brand, "price_breaks").await, 1200);
    let item = json!({"product_id": s.tea, "breaks": [{"min_quantity": "1", "unit_price": "1"}]});
    let (status, answer) = s
        .admin
        .post(
            "/api/price-lists",
            json!({"name": "Too long", "currency": "EUR", "valid_from": "2030-01-01",
                   "tiering": "volume", "items": vec![item; 501]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}

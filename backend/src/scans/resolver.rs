//! The public resolver: `GET /01/{gtin}[/10/{lot}]/21/{serial}` on the app's
//! origin, no sign-in. It finds the GTIN's brand through the platform's GTIN
//! registry, looks the serial up in that brand's schema (on the brand's own
//! connection, ADR 0010), records the scan and answers the verdict: a page
//! for people, JSON for `Accept: application/json`.
//!
//! Bots and link previews get the same answer but are only counted, apart.
//! Each address may open a limited number of links per minute; over it, the
//! resolver answers 429, except for the first scan of a genuine code, which
//! is never refused (a person holding a new pack always gets their answer).

use std::net::IpAddr;

use chrono::Utc;
use poem::http::{Method, StatusCode, header};
use poem::web::Data;
use poem::{Request, Response, handler};
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use serde::Serialize;
use uuid::Uuid;

use super::compressed;
use super::geo::IpPlaces;
use super::holders::GtinHolders;
use super::ingest::ScanWriters;
use super::links::{self, Wanted};
use super::page::{self, ProductReviews, ScanView};
use super::store;
use super::{AgentClass, DigitalLink, Place, ScanConsumer, Verdict, classify_agent};
use crate::codes::Serial;
use crate::http::input::IsoDate;
use crate::http::rate_limit::RateLimiter;
use crate::http::state::SharedState;
use crate::lots::LotStatus;
use crate::reviews::TokenKey;
use crate::tenants::TenantKind;

/// The links one address may open per minute: people's
/// (`SCAN_RATE_PER_MINUTE`), and, in a bucket of their own, bots' and link
/// previews' ([`BOT_RATE_FACTOR`] times as many). Every answer of the
/// resolver takes a token, its links (`linkType=all`) and its passport
/// (`linkType=gs1:dpp`) too; over the limit only a person's first scan of a
/// genuine code is answered.
#[derive(Clone)]
pub struct ScanLimiter {
    people: RateLimiter,
    bots: RateLimiter,
}

/// How many more links a minute bots and previews may open than people:
/// crawlers and chat apps' link previews come in bursts from one address.
pub const BOT_RATE_FACTOR: u32 = 5;

impl ScanLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self {
            people: RateLimiter::new(per_minute),
            bots: RateLimiter::new(per_minute.saturating_mul(BOT_RATE_FACTOR)),
        }
    }

    /// Takes a token from the bucket of `agent`'s kind for `ip`.
    fn allow(&self, agent: AgentClass, ip: Option<IpAddr>) -> bool {
        if agent == AgentClass::Bot {
            self.bots.allow(ip)
        } else {
            self.people.allow(ip)
        }
    }
}

/// What recording a scan reaches: the shared state and the scans' own
/// (each registered as `Data` by the composition root).
#[derive(Clone, Copy)]
pub(super) struct Resolver<'a> {
    pub state: &'a SharedState,
    pub holders: &'a GtinHolders,
    pub writers: &'a ScanWriters,
    pub review_key: &'a TokenKey,
}

/// A person's or a bot's scan of a code, as [`record`] takes it.
struct Scan<'a> {
    /// The URI's serial (AI 21).
    serial: &'a str,
    agent: AgentClass,
    /// Whether the address is within its limit.
    allowed: bool,
    place: &'a Place,
    consumer: ScanConsumer,
    /// Whether the answer is the page (which shows more than the JSON).
    for_page: bool,
}

/// The product a resolved code belongs to.
#[derive(Object, Debug)]
pub struct ScannedProduct {
    pub name: String,
    /// GTIN-14.
    pub gtin: String,
    /// The brand's stock-keeping unit.
    pub skuid: String,
}

/// The resolver's verdict on a code, for an app (`Accept: application/json`);
/// people get the scan page with the same facts.
#[derive(Object, Debug)]
#[oai(skip_serializing_if_is_none)]
pub struct ScanAnswer {
    /// `genuine`, `suspicious` (a real code scanned against the brand's
    /// rules: it may have been copied) or `not_recognised`.
    pub verdict: Verdict,
    /// The code's product; absent when the code is not recognised.
    pub product: Option<ScannedProduct>,
    /// The code's lot (GS1 AI 10), if it has one.
    pub lot: Option<String>,
    /// The expiry date (the batch's when a batch update gave one).
    pub expiry: Option<IsoDate>,
    /// Present, and true, once the expiry date has passed.
    pub expired: Option<bool>,
    /// How often the code was scanned before this scan.
    pub scans_before: i64,
    /// Present, and true, when the same consumer (the scan page's cookie,
    /// or without it the same place) scanned this code before: a repeat
    /// scan, which changes no verdict.
    pub seen_before: Option<bool>,
    /// For `POST /r/review` and `POST /r/locate` (a person's scan of a real
    /// code only; valid for 30 days, and 24 hours for a place).
    pub review_token: Option<String>,
    /// The Schedule H2 batch data a batch update gave the code (the
    /// pharmaceutical clients' codes); `expiry` is then the batch's.
    pub batch: Option<ScannedBatch>,
    /// The product's company (the pharmaceutical clients' products).
    pub manufacturer: Option<Manufacturer>,
    /// The status of the code's lot in the lot register (its batch's lot
    /// when a batch update gave it batch data, else its code job's);
    /// absent when the code has no lot. `recalled` and `held`: do not use
    /// the product (the scan page warns).
    pub lot_status: Option<LotStatus>,
}

/// The resolver's answer to a Digital Link with no serial (the GTIN alone,
/// or with its lot), for an app (`Accept: application/json`): the product,
/// and no verdict, since no pack is named.
#[derive(Object, Debug)]
#[oai(skip_serializing_if_is_none)]
pub struct ProductAnswer {
    pub product: ScannedProduct,
    /// The URI's lot (GS1 AI 10), if it has one.
    pub lot: Option<String>,
    /// Whether a public passport answers `?linkType=gs1:dpp`.
    pub passport: bool,
}

/// A pharmaceutical pack's batch (Schedule H2).
#[derive(Object, Debug)]
#[oai(skip_serializing_if_is_none)]
pub struct ScannedBatch {
    pub number: String,
    pub manufactured_on: Option<IsoDate>,
    pub expires_on: Option<IsoDate>,
    pub licence_number: Option<String>,
}

/// The company that made a pharmaceutical client's product.
#[derive(Object, Debug)]
pub struct Manufacturer {
    pub name: String,
    pub address: String,
}

fn wants_json(req: &Request) -> bool {
    req.header(header::ACCEPT)
        .is_some_and(|a| a.to_ascii_lowercase().contains("application/json"))
}

fn html(status: StatusCode, body: String) -> Response {
    Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("content-security-policy", page::CSP.as_str())
        .header(header::CACHE_CONTROL, "no-store")
        .body(body)
}

fn json(status: StatusCode, body: &impl Serialize) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header(header::CACHE_CONTROL, "no-store")
        .body(serde_json::to_vec(body).unwrap_or_default())
}

/// A contract type as JSON (its `ToJSON`, which its schema describes).
fn json_of(status: StatusCode, body: &impl ToJSON) -> Response {
    json(status, &body.to_json())
}

/// A 400 or 429 in the form the client asked for.
fn problem(req: &Request, status: StatusCode, code: &str, title: &str, message: &str) -> Response {
    let resp = if wants_json(req) {
        json(
            status,
            &serde_json::json!({ "error": message, "code": code }),
        )
    } else {
        html(status, page::problem_page(title, message))
    };
    if status == StatusCode::TOO_MANY_REQUESTS {
        let mut resp = resp;
        resp.headers_mut().insert(
            header::RETRY_AFTER,
            poem::http::HeaderValue::from_static("60"),
        );
        return resp;
    }
    resp
}

fn client_ip(req: &Request, state: &SharedState) -> Option<IpAddr> {
    crate::http::guard::client_ip(req, state.settings.trust_proxy)?
        .parse()
        .ok()
}

/// A resolved code, as every answer needs it.
struct Outcome {
    verdict: Verdict,
    code: Option<store::ScannedCode>,
    scans_before: i64,
    /// The same consumer scanned the code before.
    seen_before: bool,
    review_token: Option<String>,
    reviews: Option<ProductReviews>,
    passport_html: Option<String>,
    journey: Vec<(String, String)>,
    /// A pharmaceutical pack's batch data and manufacturer (the page only).
    pack: Option<crate::batch_updates::store::PackDetails>,
    /// The brand and the product's first image (the page only).
    brand: Option<page::Brand>,
    product_image_url: Option<String>,
}

/// A journey step's words for a consumer.
fn step_words(biz_step: Option<&str>) -> String {
    match biz_step.unwrap_or_default() {
        "commissioning" => "Codes issued by the brand".into(),
        "packing" => "Packed".into(),
        "shipping" => "Shipped".into(),
        "receiving" => "Received".into(),
        "" => "Recorded".into(),
        other => {
            let word = other.rsplit(['/', ':', '-']).next().unwrap_or(other);
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase()
                    .chain(chars.map(|c| if c == '_' { ' ' } else { c }))
                    .collect()
            })
        }
    }
}

/// What the scan page shows beyond the verdict: the public passport and the
/// product's journey (its newest steps, oldest first).
async fn public_story(
    conn: &mut sqlx::PgConnection,
    code: &store::ScannedCode,
) -> Result<(Option<String>, Vec<(String, String)>), sqlx::Error> {
    let passport =
        crate::passports::store::public_passport(conn, code.product_id, code.lot_number.as_deref())
            .await?
            .map(|p| crate::passports::render_public_html(&p));
    let journey = crate::epcis::store::product_events(conn, &code.gtin, &[], 8)
        .await?
        .iter()
        .map(|e| {
            (
                e.event_time.format("%Y-%m-%d").to_string(),
                step_words(e.biz_step.as_deref()),
            )
        })
        .collect();
    Ok((passport, journey))
}

/// The anonymous first-party cookie that tells a returning consumer from a
/// new one (a random id; nothing else about the person).
const CONSUMER_COOKIE: &str = "brandops_consumer";

fn consumer_id(req: &Request) -> Option<Uuid> {
    req.cookie()
        .get(CONSUMER_COOKIE)
        .and_then(|c| c.value_str().parse().ok())
}

/// The resolver's root: `PUBLIC_URL`, or the origin the request came to.
fn root(req: &Request, state: &SharedState) -> String {
    let configured = state.settings.public_url();
    if !configured.is_empty() {
        return configured.to_string();
    }
    let host = req.header(header::HOST).unwrap_or("localhost");
    format!("http://{host}")
}

/// Adds the `Link` headers of an ordinary answer (its linkset; the
/// uncompressed URI of a compressed one).
fn with_links(mut resp: Response, canonical: &str, compressed: bool) -> Response {
    for value in links::link_headers(canonical, compressed) {
        if let Ok(value) = poem::http::HeaderValue::from_str(&value) {
            resp.headers_mut().append(header::LINK, value);
        }
    }
    resp
}

/// A 404 in the resolver's own words, in the form the client asked for.
pub fn not_found(req: &Request, code: &str, message: &str) -> Response {
    problem(req, StatusCode::NOT_FOUND, code, "Not found", message)
}

/// `GET /{key}/…` for a GS1 primary key other than the GTIN (`/414/…`,
/// `/00/…`): a valid kind of Digital Link this resolver has no links for.
#[handler]
pub fn other_key(req: &Request) -> Response {
    not_found(
        req,
        "not_found",
        "This resolver answers GTINs (AI 01) only: it has no links for this identifier.",
    )
}

/// `GET /.well-known/gs1resolver`: the resolver description file.
#[handler]
pub fn description(req: &Request, Data(state): Data<&SharedState>) -> Response {
    let mut resp = json_of(StatusCode::OK, &links::description(&root(req, state)));
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        poem::http::HeaderValue::from_static("public, max-age=3600"),
    );
    resp
}

#[handler]
pub async fn resolve(
    req: &Request,
    Data(state): Data<&SharedState>,
    Data(holders): Data<&GtinHolders>,
    Data(writers): Data<&ScanWriters>,
    Data(limiter): Data<&ScanLimiter>,
    Data(ip_places): Data<&Option<IpPlaces>>,
    Data(review_key): Data<&TokenKey>,
) -> Response {
    let path = req.uri().path();
    // A Digital Link (`/01/…`), or a compressed one (`/{base64}`, or
    // `/01/{gtin}/{base64}`), which the composition root sends here only
    // when it decompresses.
    let parsed = match path.strip_prefix("/01/") {
        Some(rest) => DigitalLink::parse(rest).map(|link| (link, false)),
        None => Err(super::BadLink(
            "This is not a GS1 Digital Link of a GTIN.".into(),
        )),
    };
    let (link, compressed) = match parsed {
        Ok(found) => found,
        Err(bad) => match compressed::decompress(path) {
            Some(Ok(link)) => (link, true),
            _ => {
                return problem(
                    req,
                    StatusCode::BAD_REQUEST,
                    "invalid_link",
                    "This link cannot be checked",
                    &bad.0,
                );
            }
        },
    };
    answer(
        req,
        Resolver {
            state,
            holders,
            writers,
            review_key,
        },
        limiter,
        ip_places.as_ref(),
        &link,
        compressed,
    )
    .await
}

/// The answer to a Digital Link read from a request (`compressed` when its
/// URI was a compressed one).
pub(super) async fn answer(
    req: &Request,
    resolver: Resolver<'_>,
    limiter: &ScanLimiter,
    ip_places: Option<&IpPlaces>,
    link: &DigitalLink,
    compressed: bool,
) -> Response {
    let Resolver { state, holders, .. } = resolver;
    let agent = if req.method() == Method::HEAD {
        AgentClass::Bot
    } else {
        classify_agent(
            req.header(header::USER_AGENT),
            req.header("sec-purpose").or_else(|| req.header("purpose")),
        )
    };
    let ip = client_ip(req, state);
    let allowed = limiter.allow(agent, ip);
    let too_many = || {
        problem(
            req,
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "Too many checks",
            "Too many links were checked from your network in a short time. Please wait a minute and scan again.",
        )
    };
    let root = root(req, state);
    let canonical = links::canonical(&root, link);
    let wanted = links::wanted(req.uri().query(), req.header(header::ACCEPT));
    // The links, the passport and a product's page record no scan, so no
    // first scan is at stake: over the limit, they wait too.
    if !allowed && (wanted != Wanted::Default || link.serial.is_none()) {
        return too_many();
    }
    let serial = match (&wanted, link.serial.as_deref()) {
        (Wanted::Linkset, _) => {
            return linkset(req, state, holders, &root, link).await;
        }
        (Wanted::Passport, _) => {
            let resp = passport(req, state, holders, link).await;
            return with_links(resp, &canonical, compressed);
        }
        (Wanted::Unknown(link_type), _) => {
            return not_found(
                req,
                "no_such_link",
                &format!(
                    "This resolver has no link of type {link_type:?} for this item. Ask for ?linkType=linkset to list the links it has."
                ),
            );
        }
        // The GTIN alone, or with its lot: the product's page, no verdict.
        (Wanted::Default, None) => {
            let resp = product(req, state, holders, link).await;
            return with_links(resp, &canonical, compressed);
        }
        (Wanted::Default, Some(serial)) => serial,
    };
    let place = match (ip_places, ip) {
        (Some(db), Some(ip)) if agent != AgentClass::Bot => {
            db.place(ip).unwrap_or_else(Place::unknown)
        }
        _ => Place::unknown(),
    };
    let known_consumer = consumer_id(req);
    let consumer = ScanConsumer {
        id: known_consumer.unwrap_or_else(Uuid::new_v4),
        from_cookie: known_consumer.is_some(),
    };
    let for_page = !wants_json(req);
    let scan = Scan {
        serial,
        agent,
        allowed,
        place: &place,
        consumer,
        for_page,
    };
    let outcome = match record(resolver, link, scan).await {
        Ok(Some(outcome)) => outcome,
        Ok(None) => return too_many(),
        Err(err) => {
            tracing::error!(error = ?err, "recording a scan failed");
            return problem(
                req,
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "Cannot check right now",
                "This pack cannot be checked right now. Please try again in a few minutes.",
            );
        }
    };
    let mut resp = with_links(respond(req, link, &outcome), &canonical, compressed);
    if known_consumer.is_none() && agent != AgentClass::Bot {
        let secure = if state.settings.secure_cookies() {
            "; Secure"
        } else {
            ""
        };
        if let Ok(value) = poem::http::HeaderValue::from_str(&format!(
            "{CONSUMER_COOKIE}={}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax{secure}",
            consumer.id
        )) {
            resp.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    resp
}

/// `linkType=gs1:dpp`: the public part of the product's passport (the
/// lot's own when it has one), as JSON or a page. It names the product, not
/// the code, and records no scan.
async fn passport(
    req: &Request,
    state: &SharedState,
    holders: &GtinHolders,
    link: &DigitalLink,
) -> Response {
    let found = async {
        let Some(tenant) = holders.holder(&state.db.platform, &link.gtin).await? else {
            return Ok::<_, anyhow::Error>(None);
        };
        let mut conn = state.db.read_tenant(&tenant).await?;
        let Some(product_id) = store::product_of_gtin(&mut conn, &link.gtin).await? else {
            return Ok(None);
        };
        Ok(
            crate::passports::store::public_passport(&mut conn, product_id, link.lot.as_deref())
                .await?,
        )
    };
    match found.await {
        Ok(Some(p)) if wants_json(req) => json(StatusCode::OK, &p),
        Ok(Some(p)) => html(
            StatusCode::OK,
            page::passport_page(&p.product_name, &crate::passports::render_public_html(&p)),
        ),
        Ok(None) => problem(
            req,
            StatusCode::NOT_FOUND,
            "no_passport",
            "No passport yet",
            "No digital product passport is published for this product yet.",
        ),
        Err(err) => {
            tracing::error!(error = ?err, "reading a passport failed");
            problem(
                req,
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "Cannot show the passport right now",
                "The passport cannot be shown right now. Please try again in a few minutes.",
            )
        }
    }
}

/// The product `link` names, its tenant's read connection still open for
/// more: `None` when no brand holds the GTIN or the brand has no product
/// with it.
async fn find_product(
    state: &SharedState,
    holders: &GtinHolders,
    link: &DigitalLink,
) -> anyhow::Result<Option<(crate::db::TenantRead, crate::products::Product)>> {
    let Some(tenant) = holders.holder(&state.db.platform, &link.gtin).await? else {
        return Ok(None);
    };
    let mut conn = state.db.read_tenant(&tenant).await?;
    let Some(id) = store::product_of_gtin(&mut conn, &link.gtin).await? else {
        return Ok(None);
    };
    let Some(product) = crate::products::store::find(&mut conn, id).await? else {
        return Ok(None);
    };
    Ok(Some((conn, product)))
}

/// The answer when the resolver cannot read its data now.
fn unavailable(req: &Request, err: &anyhow::Error, what: &str) -> Response {
    tracing::error!(error = ?err, "{what} failed");
    problem(
        req,
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        "Cannot check right now",
        "This link cannot be answered right now. Please try again in a few minutes.",
    )
}

const NO_LINKS: &str = "This resolver has no links for this GTIN.";

/// The default link of a URI with no serial (the GTIN alone, or with its
/// lot): the product's page, or its JSON, with no verdict, since no pack is
/// named. It records no scan.
async fn product(
    req: &Request,
    state: &SharedState,
    holders: &GtinHolders,
    link: &DigitalLink,
) -> Response {
    let found = async {
        let Some((mut conn, product)) = find_product(state, holders, link).await? else {
            return Ok::<_, anyhow::Error>(None);
        };
        let passport =
            crate::passports::store::public_passport(&mut conn, product.id, link.lot.as_deref())
                .await?;
        conn.finish().await?;
        Ok(Some((product, passport)))
    };
    match found.await {
        Ok(Some((product, passport))) if wants_json(req) => json_of(
            StatusCode::OK,
            &ProductAnswer {
                product: ScannedProduct {
                    name: product.product_name,
                    gtin: product.gtin,
                    skuid: product.skuid,
                },
                lot: link.lot.clone(),
                passport: passport.is_some(),
            },
        ),
        Ok(Some((product, passport))) => html(
            StatusCode::OK,
            page::product_page(&page::ProductView {
                product_name: &product.product_name,
                gtin: &product.gtin,
                skuid: &product.skuid,
                lot: link.lot.as_deref(),
                passport_html: passport.as_ref().map(crate::passports::render_public_html),
            }),
        ),
        Ok(None) => not_found(req, "not_found", NO_LINKS),
        Err(err) => unavailable(req, &err, "reading a product"),
    }
}

/// `linkType=linkset` (and the deprecated `all`, and `Accept:
/// application/linkset+json`): the links this resolver has, as an RFC 9264
/// linkset, for each level of the URI up to the GTIN alone. It names pages,
/// never what the code is; asking for it records no scan.
async fn linkset(
    req: &Request,
    state: &SharedState,
    holders: &GtinHolders,
    root: &str,
    link: &DigitalLink,
) -> Response {
    let levels = links::levels(root, link);
    let found = async {
        let Some((mut conn, product)) = find_product(state, holders, link).await? else {
            return Ok::<_, anyhow::Error>(None);
        };
        let mut passports = Vec::with_capacity(levels.len());
        for level in &levels {
            let passport = crate::passports::store::public_passport(
                &mut conn,
                product.id,
                level.lot.as_deref(),
            )
            .await?;
            passports.push(passport.is_some());
        }
        conn.finish().await?;
        Ok(Some((product, passports)))
    };
    let (product, passports) = match found.await {
        Ok(Some(found)) => found,
        Ok(None) => return not_found(req, "not_found", NO_LINKS),
        Err(err) => return unavailable(req, &err, "listing links"),
    };
    let entries: Vec<links::LevelLinks<'_>> = levels
        .iter()
        .zip(passports)
        .map(|(level, passport)| links::LevelLinks {
            level,
            product_name: &product.product_name,
            passport,
        })
        .collect();
    let body = links::linkset(&entries);
    Response::builder()
        .status(StatusCode::OK)
        .content_type(links::LINKSET_TYPE)
        .header(header::CACHE_CONTROL, "no-store")
        .header(
            header::LINK,
            format!(
                "<{}>; rel=\"http://www.w3.org/ns/json-ld#context\"; type=\"application/ld+json\"",
                links::LINKSET_CONTEXT
            ),
        )
        .body(serde_json::to_vec(&body).unwrap_or_default())
}

/// Looks the code up and records the scan, in the brand's schema. `None`
/// when the address is over its limit and this is not a genuine code's
/// first scan.
///
/// A person's scan within the limit is one statement on the brand's own
/// connection, committed by itself (ADR 0014): ingestion is what the
/// resolver does most.
async fn record(
    resolver: Resolver<'_>,
    link: &DigitalLink,
    scan: Scan<'_>,
) -> anyhow::Result<Option<Outcome>> {
    let Scan {
        serial: serial_text,
        agent,
        allowed,
        place,
        consumer,
        for_page,
    } = scan;
    let not_recognised = || Outcome {
        verdict: Verdict::NotRecognised,
        code: None,
        scans_before: 0,
        seen_before: false,
        review_token: None,
        reviews: None,
        passport_html: None,
        journey: Vec::new(),
        pack: None,
        brand: None,
        product_image_url: None,
    };
    let verdict = |suspicious: bool| {
        if suspicious {
            Verdict::Suspicious
        } else {
            Verdict::Genuine
        }
    };
    let Resolver {
        state,
        holders,
        writers,
        review_key,
    } = resolver;
    let Some(tenant) = holders.holder(&state.db.platform, &link.gtin).await? else {
        return Ok(allowed.then(not_recognised));
    };
    let serial = Serial::decode(serial_text).map(Serial::to_db);
    let person = agent != AgentClass::Bot;
    if !person || !allowed {
        // Looked up first: a bot's hit is only counted, and over the limit
        // only a genuine code's first scan goes on.
        let mut conn = state.db.autocommit_tenant(&tenant).await?;
        let code = match serial {
            Some(serial) => store::find_code(&mut conn, serial).await?,
            None => None,
        };
        // A code is this pack's only when the URI's GTIN and lot are the code's.
        let code = code.filter(|c| {
            c.gtin == link.gtin
                && link
                    .lot
                    .as_ref()
                    .is_none_or(|lot| Some(lot) == c.lot_number.as_ref())
        });
        if !person {
            store::count_bot(&mut conn).await?;
        }
        conn.finish().await?;
        if !person {
            // A bot over its bucket is refused like a person, first scans
            // included: a bot's hit is never a pack in someone's hand.
            if !allowed {
                return Ok(None);
            }
            return Ok(Some(match code {
                Some(code) => Outcome {
                    verdict: verdict(code.suspicious),
                    scans_before: i64::from(code.scans),
                    code: Some(code),
                    ..not_recognised()
                },
                None => not_recognised(),
            }));
        }
        if code.is_none_or(|c| c.scans != 0) {
            return Ok(None);
        }
    }
    // Written together with the other scans coming in (a batch per brand);
    // no connection is held while waiting.
    let written = writers
        .write(
            state,
            &tenant,
            super::ingest::NewScan {
                serial,
                gtin: link.gtin.clone(),
                lot: link.lot.clone(),
                serial_text: serial_text.to_string(),
                agent: agent.as_str(),
                place: place.clone(),
                consumer: consumer.id,
                counted_as: consumer.counted_as(place),
            },
        )
        .await?;
    let Some(recorded) = written else {
        return Ok(Some(not_recognised()));
    };
    let code = recorded.code;
    let seen_before = recorded.seen_before;
    // Only the page shows the product's reviews, passport and journey; the
    // pack's batch data is on the page, and in the JSON of the clients'
    // codes (brands' codes get none: their hot path keeps its one statement).
    let mut brand = None;
    let mut product_image_url = None;
    let (reviews, passport_html, journey, pack) = if for_page {
        let mut conn = state.db.read_tenant(&tenant).await?;
        let (average, count, newest) =
            crate::reviews::store::for_scan_page(&mut conn, code.product_id, 3).await?;
        let (passport, journey) = public_story(&mut conn, &code).await?;
        let (name, logo) = crate::organisation::store::brand_identity(&mut conn).await?;
        brand = Some(page::Brand {
            name,
            logo_url: logo.map(|(id, ext)| super::identity::logo_url(&code.gtin, id, &ext)),
        });
        product_image_url = crate::products::store::first_image(&mut conn, code.product_id)
            .await?
            .and_then(|stored| super::identity::product_image_url(&code.gtin, &stored));
        let pack = match serial {
            Some(serial) => {
                crate::batch_updates::store::pack_details(&mut conn, serial, code.product_id)
                    .await?
            }
            None => None,
        };
        conn.finish().await?;
        (
            Some(ProductReviews {
                average,
                count,
                newest,
            }),
            passport,
            journey,
            pack,
        )
    } else if tenant.kind == TenantKind::Client
        && let Some(serial) = serial
    {
        let mut conn = state.db.read_tenant(&tenant).await?;
        let pack =
            crate::batch_updates::store::pack_details(&mut conn, serial, code.product_id).await?;
        conn.finish().await?;
        (None, None, Vec::new(), pack)
    } else {
        (None, None, Vec::new(), None)
    };
    Ok(Some(Outcome {
        verdict: verdict(code.suspicious),
        scans_before: i64::from(code.scans),
        seen_before,
        review_token: Some(review_key.sign(tenant.id, recorded.scan_id, Utc::now())),
        reviews,
        passport_html,
        journey,
        pack,
        brand,
        product_image_url,
        code: Some(code),
    }))
}

fn respond(req: &Request, link: &DigitalLink, outcome: &Outcome) -> Response {
    let code = outcome.code.as_ref();
    let today = Utc::now().date_naive();
    // Batch data a batch update gave the code wins over its lot's.
    let batch = outcome.pack.as_ref().filter(|p| p.batch_number.is_some());
    let expiry = batch.map_or_else(|| code.and_then(|c| c.expires_on), |b| b.expires_on);
    let expired = expiry.is_some_and(|d| d < today);
    let expiry_text = expiry.map(|d| d.format("%Y-%m-%d").to_string());
    // The batch's lot's status wins over the code job's lot's, as its data.
    let lot_status = batch
        .and_then(|b| b.lot_status.as_deref())
        .or_else(|| code.and_then(|c| c.lot_status.as_deref()))
        .and_then(LotStatus::parse);
    if wants_json(req) {
        return json_of(
            StatusCode::OK,
            &ScanAnswer {
                verdict: outcome.verdict,
                product: code.map(|c| ScannedProduct {
                    name: c.product_name.clone(),
                    gtin: c.gtin.clone(),
                    skuid: c.skuid.clone(),
                }),
                lot: code.and_then(|c| c.lot_number.clone()),
                expiry: expiry.map(IsoDate),
                expired: expired.then_some(true),
                scans_before: outcome.scans_before,
                seen_before: outcome.seen_before.then_some(true),
                review_token: outcome.review_token.clone(),
                batch: batch.and_then(|b| {
                    Some(ScannedBatch {
                        number: b.batch_number.clone()?,
                        manufactured_on: b.manufactured_on.map(IsoDate),
                        expires_on: b.expires_on.map(IsoDate),
                        licence_number: b.licence_number.clone(),
                    })
                }),
                manufacturer: outcome.pack.as_ref().and_then(|p| {
                    Some(Manufacturer {
                        name: p.manufacturer.clone()?,
                        address: p.manufacturer_address.clone()?,
                    })
                }),
                lot_status,
            },
        );
    }
    let view = ScanView {
        verdict: outcome.verdict,
        product_name: code.map(|c| c.product_name.as_str()),
        gtin: &link.gtin,
        skuid: code.map(|c| c.skuid.as_str()),
        lot: batch.map_or_else(
            || code.and_then(|c| c.lot_number.as_deref()),
            |b| b.batch_number.as_deref(),
        ),
        manufactured_on: batch
            .map_or_else(
                || code.and_then(|c| c.manufactured_on),
                |b| b.manufactured_on,
            )
            .map(|d| d.format("%Y-%m-%d").to_string()),
        licence_number: batch.and_then(|b| b.licence_number.as_deref()),
        manufacturer: outcome.pack.as_ref().and_then(|p| {
            Some((
                p.manufacturer.as_deref()?,
                p.manufacturer_address.as_deref()?,
            ))
        }),
        expires_on: expiry_text,
        expired,
        lot_status,
        scans_before: outcome.scans_before,
        seen_before: outcome.seen_before,
        review_token: outcome.review_token.clone(),
        reviews: outcome.reviews.as_ref().map(|r| ProductReviews {
            average: r.average,
            count: r.count,
            newest: r.newest.clone(),
        }),
        passport_html: outcome.passport_html.clone(),
        journey: outcome.journey.clone(),
        brand: outcome.brand.clone(),
        product_image_url: outcome.product_image_url.clone(),
    };
    html(StatusCode::OK, page::scan_page(&view))
}

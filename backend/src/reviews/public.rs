//! `POST /r/review`: the scan page's review form (or the same fields as
//! JSON from an app). No sign-in: the review token from the scan's answer is
//! the proof that a person scanned a real code, and it names the tenant and
//! the scan, so a review can only land where that scan was recorded.

use chrono::Utc;
use poem::http::{StatusCode, header};
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use serde::Deserialize;
use uuid::Uuid;

use super::TokenKey;
use super::store::{self, Added};
use super::{rating, review_text};
use crate::http::error::ErrorBody;
use crate::http::guard::origin_of;
use crate::http::rate_limit::RateLimiter;
use crate::http::response::Notice;
use crate::http::state::SharedState;
use crate::scans::page;

/// The reviews one address may send per minute.
#[derive(Clone)]
pub struct ReviewLimiter(pub RateLimiter);

/// The most a review request may carry.
const MAX_BODY: usize = 8 * 1024;

/// A consumer's review of the product they scanned, as an app sends it
/// (the scan page's form posts the same fields, `rating` as text).
#[derive(Object, Deserialize, Debug)]
pub struct ReviewRequest {
    /// The `review_token` of the scan's answer.
    pub token: String,
    /// Stars, 1 to 5.
    #[oai(validator(minimum(value = "1"), maximum(value = "5")))]
    pub rating: i64,
    /// What the consumer says: at most 1,000 characters, no control
    /// characters but line breaks. Markup is kept as text.
    #[oai(validator(max_length = 1000))]
    #[serde(default)]
    pub text: Option<String>,
}

/// The fields of a review, from JSON or the scan page's form.
struct ReviewForm {
    token: String,
    rating: String,
    text: String,
}

fn answer(json: bool, status: StatusCode, code: &str, title: &str, message: &str) -> Response {
    answer_with_link(json, status, code, title, message, None)
}

/// [`answer`], with the page's link back to the product's page (`back`, a
/// path of this site).
fn answer_with_link(
    json: bool,
    status: StatusCode,
    code: &str,
    title: &str,
    message: &str,
    back: Option<&str>,
) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header(header::CACHE_CONTROL, "no-store");
    if status == StatusCode::TOO_MANY_REQUESTS {
        builder = builder.header(header::RETRY_AFTER, "60");
    }
    if json {
        let body = if status.is_success() {
            Notice::new(message, code).to_json()
        } else {
            ErrorBody {
                error: message.to_string(),
                code: code.to_string(),
            }
            .to_json()
        };
        builder
            .content_type("application/json")
            .body(body.map(|b| b.to_string()).unwrap_or_default())
    } else {
        builder
            .content_type("text/html; charset=utf-8")
            .header("content-security-policy", page::CSP.as_str())
            .body(page::notice_page(title, message, status.is_success(), back))
    }
}

fn refused(json: bool, status: StatusCode, code: &str, message: &str) -> Response {
    answer(json, status, code, "Your review was not saved", message)
}

const BAD_TOKEN: &str =
    "This review form has expired or is not valid. Scan the pack again to leave a review.";

#[handler]
pub async fn add_review(
    req: &Request,
    body: Body,
    Data(state): Data<&SharedState>,
    Data(limiter): Data<&ReviewLimiter>,
    Data(review_key): Data<&TokenKey>,
) -> Response {
    let json = req
        .header(header::CONTENT_TYPE)
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    // A form posted from another site is refused (the scan page's own form
    // sends this origin).
    if let Some(origin) = req.header(header::ORIGIN)
        && origin_of(origin).as_ref() != Some(&state.public_origin)
    {
        return refused(
            json,
            StatusCode::FORBIDDEN,
            "forbidden",
            "Reviews are taken only from this site's scan page.",
        );
    }
    let Ok(bytes) = body.into_bytes_limit(MAX_BODY).await else {
        return refused(
            json,
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "The review is too large.",
        );
    };
    let form: Option<ReviewForm> = if json {
        serde_json::from_slice::<ReviewRequest>(&bytes)
            .ok()
            .map(|r| ReviewForm {
                token: r.token,
                rating: r.rating.to_string(),
                text: r.text.unwrap_or_default(),
            })
    } else {
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes)
            .ok()
            .map(|pairs| {
                let field = |name: &str| {
                    pairs
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                };
                ReviewForm {
                    token: field("token"),
                    rating: field("rating"),
                    text: field("text"),
                }
            })
    };
    let Some(form) = form else {
        return refused(
            json,
            StatusCode::BAD_REQUEST,
            "invalid_input",
            "Send a rating from 1 to 5, your text and the form's token.",
        );
    };
    let ip = crate::http::guard::client_ip(req, state.settings.trust_proxy)
        .and_then(|ip| ip.parse().ok());
    if !limiter.0.allow(ip) {
        return refused(
            json,
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "Too many reviews were sent from your network. Please wait a minute and try again.",
        );
    }
    let (stars, text) = match (rating(&form.rating), review_text(&form.text)) {
        (Ok(stars), Ok(text)) => (stars, text),
        (Err(message), _) | (_, Err(message)) => {
            return refused(json, StatusCode::BAD_REQUEST, "invalid_input", &message);
        }
    };
    let Some((tenant_id, scan_id)) = review_key.verify(&form.token, Utc::now()) else {
        return refused(json, StatusCode::BAD_REQUEST, "invalid_token", BAD_TOKEN);
    };
    match save(state, tenant_id, scan_id, stars, &text).await {
        Ok(Some(Added::Added { back })) => answer_with_link(
            json,
            if json {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            },
            "added",
            "Thank you",
            "Thank you: your review was saved and the brand will read it.",
            Some(&back),
        ),
        Ok(Some(Added::AlreadyReviewed)) => refused(
            json,
            StatusCode::CONFLICT,
            "conflict",
            "This scan already has its review.",
        ),
        Ok(Some(Added::NoSuchScan) | None) => {
            refused(json, StatusCode::BAD_REQUEST, "invalid_token", BAD_TOKEN)
        }
        Err(err) => {
            tracing::error!(error = ?err, "saving a review failed");
            refused(
                json,
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "Your review cannot be saved right now. Please try again in a few minutes.",
            )
        }
    }
}

async fn save(
    state: &SharedState,
    tenant_id: Uuid,
    scan_id: i64,
    stars: i16,
    text: &str,
) -> anyhow::Result<Option<Added>> {
    let Some(tenant) = crate::tenants::store::active_tenant(&state.db.platform, tenant_id).await?
    else {
        return Ok(None);
    };
    let mut tx = state.db.begin_tenant(&tenant).await?;
    let added = store::add(&mut tx, Uuid::new_v4(), scan_id, stars, text).await?;
    tx.commit().await?;
    Ok(Some(added))
}

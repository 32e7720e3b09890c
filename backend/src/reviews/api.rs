//! The brand's review operations: read them with filters, hide or show one.

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::{Review, store};
use crate::audit;
use crate::auth::tokens_equal;
use crate::http::error::{ApiError, QueryError, WriteLookupError};
use crate::http::input::PathId;
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;

#[derive(Default)]
pub struct ReviewsApi;

/// The reviews that match, newest first (at most 200).
#[derive(Object, Debug)]
pub struct ReviewList {
    pub reviews: Vec<Review>,
}

#[derive(Object, Debug)]
pub struct ReviewChange {
    /// True hides the review (it is kept); false shows it again.
    pub hidden: bool,
}

/// The spec's message when the reviews call carries no CSRF token.
pub const CSRF_MISSING: &str = "CSRF token is missing";

const LIST_LIMIT: i64 = 200;

fn no_such_review() -> ApiError {
    ApiError::not_found("No such review in your organisation.")
}

#[OpenApi(tag = "ApiTags::Reviews")]
impl ReviewsApi {
    /// The organisation's reviews, newest first (at most 200), filtered by
    /// product, rating and whether they are hidden. Like the spec's call, it
    /// must carry the session's CSRF token in `x-csrf-token`.
    #[oai(path = "/reviews", method = "get", operation_id = "listReviews")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        #[oai(name = "x-csrf-token")] csrf: Header<Option<String>>,
        product_id: Query<Option<Uuid>>,
        #[oai(validator(minimum(value = "1"), maximum(value = "5")))] rating: Query<Option<i16>>,
        hidden: Query<Option<bool>>,
    ) -> Result<JsonOk<ReviewList>, QueryError> {
        match csrf.0.as_deref() {
            None | Some("") => {
                return Err(ApiError::new(StatusCode::FORBIDDEN, "csrf", CSRF_MISSING).into());
            }
            Some(sent) if !tokens_equal(sent, &caller.session.csrf_token) => {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "csrf",
                    "Missing or invalid CSRF token. Reload the page and try again.",
                )
                .into());
            }
            Some(_) => {}
        }
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let reviews = store::list(&mut conn, product_id.0, rating.0, hidden.0, LIST_LIMIT).await?;
        Ok(JsonOk(ReviewList { reviews }))
    }

    /// Hides a review (kept, but no longer shown on scan pages or counted in
    /// their rating) or shows it again.
    #[oai(path = "/reviews/:id", method = "patch", operation_id = "updateReview")]
    async fn update(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<ReviewChange>,
    ) -> Result<JsonOk<Review>, WriteLookupError> {
        let id = id.0.or(no_such_review)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let review = store::set_hidden(&mut tx, id, body.0.hidden, caller.session.account_id)
            .await?
            .ok_or_else(no_such_review)?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            if review.hidden {
                "review.hidden"
            } else {
                "review.shown"
            },
            &review.id.to_string(),
            serde_json::json!({ "product_id": review.product_id }),
        )
        .await?;
        tx.commit().await?;
        Ok(JsonOk(review))
    }
}

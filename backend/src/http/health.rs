//! Liveness (`/api/health`, never touches the database) and readiness
//! (`/api/ready`, the database answers).

use poem::Request;
use poem::web::Data;
use poem_openapi::{Object, OpenApi};

use crate::error_responses;
use crate::http::error::ApiError;
use crate::http::response::JsonOk;
use crate::http::security::authorize_public;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;

#[derive(Default)]
pub struct HealthApi;

/// The server's status.
#[derive(Object, Debug)]
pub struct Status {
    pub status: String,
}

error_responses!(HealthError { Forbidden = 403 });
error_responses!(ReadyError { Forbidden = 403, Unavailable = 503 });

#[OpenApi(tag = "ApiTags::Health")]
impl HealthApi {
    /// The process is up (no database involved).
    #[oai(path = "/health", method = "get", operation_id = "health")]
    async fn health(&self, req: &Request) -> Result<JsonOk<Status>, HealthError> {
        authorize_public(req)?;
        Ok(JsonOk(Status {
            status: "ok".into(),
        }))
    }

    /// The process can serve requests: the database answers.
    #[oai(path = "/ready", method = "get", operation_id = "ready")]
    async fn ready(
        &self,
        state: Data<&SharedState>,
        req: &Request,
    ) -> Result<JsonOk<Status>, ReadyError> {
        authorize_public(req)?;
        match state.db.ping().await {
            Ok(()) => Ok(JsonOk(Status {
                status: "ready".into(),
            })),
            Err(err) => {
                tracing::warn!(error = %err, "database not reachable");
                Err(ApiError::new(
                    poem::http::StatusCode::SERVICE_UNAVAILABLE,
                    "not_ready",
                    "The database is not reachable.",
                )
                .into())
            }
        }
    }
}

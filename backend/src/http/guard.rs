//! The per-request guard in front of every `/api` operation.
//!
//! [`Guard`] (a poem middleware) gives each request an id and a log span,
//! works out which operation it calls, refuses cross-origin unsafe requests,
//! loads the session from the private cookie and checks the CSRF token on
//! unsafe methods. The security schemes of `security.rs` then ask the policy
//! whether the session's role may call that operation.
//!
//! The guard knows sessions only as infrastructure ([`Session`] and the
//! cookie and header names of `crate::identity`); how a session is stored
//! is the `auth` domain's, which the composition root hands in as a
//! [`LoadSession`] function.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use sqlx::PgPool;
use tokio::io::AsyncReadExt;
use tracing::Instrument;
use uuid::Uuid;

use crate::http::error::{ApiError, render_any_error};
use crate::http::operations::{Operation, OperationId};
use crate::http::state::SharedState;
use crate::identity::{CSRF_HEADER, SESSION_COOKIE, Session, tokens_equal};

/// What the guard learned about the request, for the security schemes.
#[derive(Clone, Debug)]
pub struct RequestContext {
    pub request_id: String,
    pub ip: Option<String>,
    pub session: Option<Arc<Session>>,
    /// The operation the request calls; `None` when no operation matches (the
    /// router then answers 404 or 405 and no operation runs).
    pub operation: Option<OperationId>,
    /// The plan module of that operation (`http::modules`), if it has one.
    pub module: Option<&'static str>,
}

/// The operations the guard treats apart: liveness reads no session, and
/// signing in needs no CSRF token. (A test checks both ids exist.)
pub const HEALTH: &str = "health";
pub const LOGIN: &str = "login";

/// Finds the live session of a cookie's token on the platform pool (its
/// idle timeout given), or `None`. The root passes `auth`'s lookup.
pub type LoadSession =
    for<'a> fn(&'a PgPool, &'a str, Duration) -> BoxFuture<'a, anyhow::Result<Option<Session>>>;

pub struct Guard {
    state: SharedState,
    load_session: LoadSession,
}

impl Guard {
    pub fn new(state: SharedState, load_session: LoadSession) -> Self {
        Self {
            state,
            load_session,
        }
    }
}

impl<E: Endpoint> Middleware<E> for Guard {
    type Output = GuardEndpoint<E>;
    fn transform(&self, ep: E) -> Self::Output {
        GuardEndpoint {
            inner: ep,
            state: self.state.clone(),
            load_session: self.load_session,
        }
    }
}

pub struct GuardEndpoint<E> {
    inner: E,
    state: SharedState,
    load_session: LoadSession,
}

fn is_unsafe(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The client's address. Behind our own proxy (`TRUST_PROXY`) it is the
/// right-most `X-Forwarded-For` entry: the one our proxy appended. Entries to
/// its left came from the client and can say anything.
pub(crate) fn client_ip(req: &Request, trust_proxy: bool) -> Option<String> {
    if trust_proxy
        && let Some(forwarded) = req.header("x-forwarded-for")
        && let Some(last) = forwarded.rsplit(',').next()
    {
        let last = last.trim();
        if !last.is_empty() {
            return Some(last.to_string());
        }
    }
    req.remote_addr()
        .as_socket_addr()
        .map(|a| a.ip().to_string())
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!(
            "The request body is too large: {} KiB at most.",
            limit / 1024
        ),
    )
}

/// Reads the body of an operation that takes one, up to its limit, counting
/// the bytes as they arrive (a missing or false `Content-Length` changes
/// nothing), and puts it back for the operation. A body sent to an operation
/// that takes none, or to no operation, is never read.
///
/// The multipart body of a streamed upload is not read here: it goes on to
/// the operation (which spools it to a temporary file), cut after its
/// limit, which the operation then refuses.
async fn limit_body(req: &mut Request, operation: Option<Operation>) -> Result<(), ApiError> {
    let Some(mut limit) = operation.and_then(|op| op.body_limit) else {
        req.set_body(());
        return Ok(());
    };
    if operation.is_some_and(|op| op.streamed) {
        let multipart = req
            .header(header::CONTENT_TYPE)
            .is_some_and(|t| t.to_ascii_lowercase().starts_with("multipart/form-data"));
        if multipart {
            let declared = req
                .header(header::CONTENT_LENGTH)
                .and_then(|len| len.parse::<u64>().ok());
            if declared.is_some_and(|len| len > limit as u64) {
                return Err(too_large(limit));
            }
            let body = req.take_body().into_async_read().take(limit as u64 + 1);
            req.set_body(poem::Body::from_async_read(body));
            return Ok(());
        }
        limit = crate::http::operations::STREAMED_OTHER_LIMIT;
    }
    let declared = req
        .header(header::CONTENT_LENGTH)
        .and_then(|len| len.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large(limit));
    }
    let mut body = Vec::new();
    req.take_body()
        .into_async_read()
        .take(limit as u64 + 1)
        .read_to_end(&mut body)
        .await
        .map_err(|_| ApiError::invalid_input("The request body could not be read."))?;
    if body.len() > limit {
        return Err(too_large(limit));
    }
    req.set_body(body);
    Ok(())
}

pub use crate::config::{Origin, origin_of};

/// Unsafe requests must come from our own pages: when a browser sends Origin
/// (it does on every unsafe request), its scheme, host and port must be
/// those of `PUBLIC_URL` (parsed once, at start-up). The request's own `Host`
/// header proves nothing: a DNS-rebinding page sends a Host and an Origin of
/// its own name.
fn cross_origin(req: &Request, public_origin: &Origin) -> bool {
    if req.header("sec-fetch-site") == Some("cross-site") {
        return true;
    }
    let Some(origin) = req.header(header::ORIGIN) else {
        return false;
    };
    origin_of(origin).as_ref() != Some(public_origin)
}

impl<E: Endpoint> Endpoint for GuardEndpoint<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let request_id = Uuid::new_v4().to_string();
        let span = tracing::info_span!(
            "request",
            request_id = %request_id,
            method = %req.method(),
            path = %req.original_uri().path(),
            tenant = tracing::field::Empty,
            account = tracing::field::Empty,
        );
        let started = Instant::now();
        let state = self.state.clone();
        async move {
            let uri = req.uri().clone();
            let response = match self.prepare(&state, &mut req, &request_id).await {
                Ok(()) => match self.inner.call(req).await {
                    Ok(resp) => resp.into_response(),
                    Err(err) => render_any_error(err),
                },
                Err(err) => err.as_response_ref(),
            };
            tracing::info!(
                status = response.status().as_u16(),
                elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
                "request finished"
            );
            let mut response = response;
            if let Ok(v) = request_id.parse() {
                response.headers_mut().insert("x-request-id", v);
            }
            // A 405 says which methods the address does accept (RFC 9110).
            if response.status() == StatusCode::METHOD_NOT_ALLOWED {
                let allowed = state.operations.allowed_methods(&uri).await;
                if let Ok(v) = allowed.join(", ").parse() {
                    response.headers_mut().insert(header::ALLOW, v);
                }
            }
            Ok(response)
        }
        .instrument(span)
        .await
    }
}

impl<E> GuardEndpoint<E> {
    async fn prepare(
        &self,
        state: &SharedState,
        req: &mut Request,
        request_id: &str,
    ) -> Result<(), ApiError> {
        let unsafe_method = is_unsafe(req.method());
        if unsafe_method && cross_origin(req, &state.public_origin) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                "Requests that change data must come from the brandops app itself.",
            ));
        }
        let resolved = state.operations.resolve(req.method(), req.uri()).await;
        let operation = resolved.map(|op| op.id);
        limit_body(req, resolved).await?;
        // Liveness must not touch the database, session or not.
        let health = operation == Some(OperationId(HEALTH));
        let token = req
            .cookie()
            .private_with_key(&state.cookie_key)
            .get(SESSION_COOKIE)
            .map(|c| c.value_str().to_string())
            .filter(|_| !health);
        let session = match token {
            Some(token) => {
                (self.load_session)(
                    &state.db.platform,
                    &token,
                    state.settings.session_idle_timeout,
                )
                .await?
            }
            None => None,
        };
        if let Some(s) = &session {
            let span = tracing::Span::current();
            span.record("account", tracing::field::display(s.account_id));
            if let Some(client) = s.client_id() {
                span.record("tenant", client);
            }
            // Signing in again from a signed-in browser needs no token: the
            // old session is ended by the sign-in itself.
            let login = operation == Some(OperationId(LOGIN));
            if unsafe_method && !login {
                let sent = req.header(CSRF_HEADER).unwrap_or_default();
                if !tokens_equal(sent, &s.csrf_token) {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "csrf",
                        "Missing or invalid CSRF token. Reload the page and try again.",
                    ));
                }
            }
        }
        let ip = client_ip(req, state.settings.trust_proxy);
        req.extensions_mut().insert(RequestContext {
            request_id: request_id.to_string(),
            ip,
            session: session.map(Arc::new),
            operation,
            module: resolved.and_then(|op| op.module),
        });
        Ok(())
    }
}

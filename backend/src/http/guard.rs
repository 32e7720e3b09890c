//! The per-request guard in front of every `/api` operation.
//!
//! [`Guard`] (a poem middleware) gives each request an id and a log span,
//! works out which operation it calls, refuses cross-origin unsafe requests,
//! loads the session from the private cookie and checks the CSRF token on
//! unsafe methods. The security schemes of `security.rs` then ask the policy
//! whether the session's role may call that operation.

use std::sync::Arc;
use std::time::Instant;

use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use tracing::Instrument;
use uuid::Uuid;

use crate::auth::tokens_equal;
use crate::auth::{CSRF_HEADER, SESSION_COOKIE, Session, store as sessions};
use crate::http::error::{ApiError, render_any_error};
use crate::http::operations::OperationId;
use crate::http::state::SharedState;

/// What the guard learned about the request, for the security schemes.
#[derive(Clone, Debug)]
pub struct RequestContext {
    pub request_id: String,
    pub ip: Option<String>,
    pub session: Option<Arc<Session>>,
    /// The operation the request calls; `None` when no operation matches (the
    /// router then answers 404 or 405 and no operation runs).
    pub operation: Option<OperationId>,
}

pub struct Guard {
    state: SharedState,
}

impl Guard {
    pub fn new(state: SharedState) -> Self {
        Self { state }
    }
}

impl<E: Endpoint> Middleware<E> for Guard {
    type Output = GuardEndpoint<E>;
    fn transform(&self, ep: E) -> Self::Output {
        GuardEndpoint {
            inner: ep,
            state: self.state.clone(),
        }
    }
}

pub struct GuardEndpoint<E> {
    inner: E,
    state: SharedState,
}

fn is_unsafe(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The client's address. Behind our own proxy (`TRUST_PROXY`) it is the
/// right-most `X-Forwarded-For` entry: the one our proxy appended. Entries to
/// its left came from the client and can say anything.
fn client_ip(req: &Request, trust_proxy: bool) -> Option<String> {
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

/// Unsafe requests must come from our own pages: a browser sends Origin (and
/// Sec-Fetch-Site) on them, and they must name this host.
fn cross_origin(req: &Request, public_url: &str) -> bool {
    if req.header("sec-fetch-site") == Some("cross-site") {
        return true;
    }
    let Some(origin) = req.header(header::ORIGIN) else {
        return false;
    };
    if origin == public_url {
        return false;
    }
    let host = req.header(header::HOST).unwrap_or_default();
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    origin_host != Some(host)
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
        if unsafe_method && cross_origin(req, &state.settings.public_url) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                "Requests that change data must come from the brandops app itself.",
            ));
        }
        let operation = state.operations.resolve(req.method(), req.uri()).await;
        // Liveness must not touch the database, session or not.
        let health = operation == Some(OperationId("health"));
        let token = req
            .cookie()
            .private_with_key(&state.cookie_key)
            .get(SESSION_COOKIE)
            .map(|c| c.value_str().to_string())
            .filter(|_| !health);
        let session = match token {
            Some(token) => {
                sessions::load(&state.db.app, &token, state.settings.session_idle_timeout).await?
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
            let login = operation == Some(OperationId("login"));
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
        });
        Ok(())
    }
}

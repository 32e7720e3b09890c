//! The per-request guard in front of every `/api` operation.
//!
//! [`Guard`] (a poem middleware) gives each request an id and a log span,
//! refuses cross-origin unsafe requests, loads the session from the private
//! cookie and checks the CSRF token on unsafe methods. [`SessionAuth`] (the
//! OpenAPI security scheme of every protected operation) then asks the policy
//! whether the session's role may call this operation on this path.

use std::sync::Arc;
use std::time::Instant;

use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use poem_openapi::SecurityScheme;
use poem_openapi::auth::ApiKey;
use tracing::Instrument;
use uuid::Uuid;

use super::session::{self, Session, tokens_equal};
use super::{CSRF_HEADER, SESSION_COOKIE};
use crate::access::ANONYMOUS;
use crate::error::{ApiError, render_any_error};
use crate::state::SharedState;

/// What the guard learned about the request, for handlers and the checker.
#[derive(Clone, Debug)]
pub struct RequestContext {
    pub request_id: String,
    pub ip: Option<String>,
    pub session: Option<Arc<Session>>,
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

fn client_ip(req: &Request, trust_proxy: bool) -> Option<String> {
    if trust_proxy
        && let Some(forwarded) = req.header("x-forwarded-for")
        && let Some(first) = forwarded.split(',').next()
    {
        let first = first.trim();
        if !first.is_empty() {
            return Some(first.to_string());
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
        // Liveness must not touch the database, session or not.
        let health = req.original_uri().path() == "/api/health";
        let token = req
            .cookie()
            .private_with_key(&state.cookie_key)
            .get(SESSION_COOKIE)
            .map(|c| c.value_str().to_string())
            .filter(|_| !health);
        let session = match token {
            Some(token) => {
                session::load(&state.db.app, &token, state.settings.session_idle_timeout).await?
            }
            None => None,
        };
        if let Some(s) = &session {
            let span = tracing::Span::current();
            span.record("account", tracing::field::display(s.account_id));
            if let Some(client) = s.client_id() {
                span.record("tenant", client);
            }
            let login = req
                .original_uri()
                .path()
                .eq_ignore_ascii_case("/api/auth/login");
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
        });
        Ok(())
    }
}

/// Signed in through the session cookie, and allowed by the policy to call
/// this operation.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "brandops_session",
    key_in = "cookie",
    checker = "authorize_session"
)]
pub struct SessionAuth(pub Arc<Session>);

/// The state and the guard's context of a request that passed the guard.
fn guarded(req: &Request) -> Result<(&SharedState, RequestContext), ApiError> {
    let state = req
        .data::<SharedState>()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("state missing")))?;
    let ctx = req
        .extensions()
        .get::<RequestContext>()
        .cloned()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("guard missing")))?;
    Ok((state, ctx))
}

/// Asks the policy whether `role` in `domain` may call this request's path
/// and method.
fn policy_allows(state: &SharedState, req: &Request, role: &str, domain: &str) -> bool {
    state.access.allows(
        role,
        domain,
        req.original_uri().path(),
        req.method().as_str(),
    )
}

async fn authorize_session(req: &Request, _cookie: ApiKey) -> poem::Result<Arc<Session>> {
    let (state, ctx) = guarded(req)?;
    let Some(session) = ctx.session else {
        return Err(ApiError::unauthenticated().into());
    };
    if !policy_allows(state, req, session.role.as_str(), &session.access_domain()) {
        return Err(ApiError::forbidden().into());
    }
    Ok(session)
}

/// For the operations anyone may call (sign-in, health): still asks the
/// policy, with the caller's role or `anonymous`.
pub fn authorize_public(req: &Request) -> Result<RequestContext, ApiError> {
    let (state, ctx) = guarded(req)?;
    let (role, domain) = match &ctx.session {
        Some(s) => (s.role.as_str().to_string(), s.access_domain()),
        None => (ANONYMOUS.to_string(), "*".to_string()),
    };
    if policy_allows(state, req, &role, &domain) {
        Ok(ctx)
    } else {
        Err(ApiError::forbidden())
    }
}

/// The request context of a protected operation (the guard always sets it).
pub fn context(req: &Request) -> RequestContext {
    req.extensions()
        .get::<RequestContext>()
        .cloned()
        .unwrap_or_else(|| RequestContext {
            request_id: String::new(),
            ip: None,
            session: None,
        })
}

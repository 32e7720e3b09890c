//! How a handler learns who calls it: one security scheme per kind of caller.
//! Each asks the one policy whether the caller's role may call this
//! operation (by its `operation_id`), so authorization is the visible first
//! parameter of every protected handler.
//!
//! - [`SignedIn`]: any signed-in account (platform admins included);
//! - [`TenantSession`]: a signed-in member of a tenant, with its
//!   [`TenantRef`]; platform admins are refused;
//! - [`authorize_public`]: for the few operations anyone may call.
//!
//! A tenant's member is also refused (403 `module_disabled`) an operation of
//! a plan module their organisation does not have (`http::modules`); the
//! session carries the tenant's modules as they are now, so a platform
//! admin's change applies from the next request.
//!
//! Both schemes are the same cookie to a client, so the contract shows one
//! scheme, `SessionAuth`.

use std::sync::Arc;

use poem::Request;
use poem::http::StatusCode;
use poem_openapi::SecurityScheme;
use poem_openapi::auth::ApiKey;

use crate::audit::Actor;
use crate::http::access::ANONYMOUS;
use crate::http::error::ApiError;
use crate::http::guard::RequestContext;
use crate::http::modules::module_name;
use crate::http::state::SharedState;
use crate::identity::Session;
use crate::tenancy::TenantRef;

/// A signed-in caller whom the policy allows to call this operation.
#[derive(Clone, Debug)]
pub struct Caller {
    pub session: Arc<Session>,
    /// Who to record in the audit log: the account and its client address.
    pub actor: Actor,
}

/// A signed-in member of a tenant whom the policy allows to call this
/// operation.
#[derive(Clone, Debug)]
pub struct TenantCaller {
    pub session: Arc<Session>,
    pub tenant: TenantRef,
    pub actor: Actor,
}

/// Declares a security scheme over the session cookie whose checker gives
/// the handler `$caller`. Every such scheme is the one `SessionAuth` of the
/// contract: the same cookie, the same description.
// rustfmt re-indents attributes inside macro_rules on every run; this one
// is laid out by hand.
#[rustfmt::skip]
macro_rules! session_scheme {
    ($name:ident($caller:ty) checked by $checker:literal) => {
        /// Signed in through the session cookie, and allowed by the policy to call
        /// this operation.
        #[derive(SecurityScheme)]
        #[oai(
            rename = "SessionAuth",
            ty = "api_key",
            key_name = "brandops_session",
            key_in = "cookie",
            checker = $checker
        )]
        pub struct $name(pub $caller);

        impl std::ops::Deref for $name {
            type Target = $caller;
            fn deref(&self) -> &$caller {
                &self.0
            }
        }
    };
}

session_scheme!(SignedIn(Caller) checked by "authorize_signed_in");
session_scheme!(TenantSession(TenantCaller) checked by "authorize_tenant");

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

/// Asks the policy whether `role` in `domain` may call the request's
/// operation. A request that names no operation is never allowed.
fn policy_allows(state: &SharedState, ctx: &RequestContext, role: &str, domain: &str) -> bool {
    ctx.operation
        .is_some_and(|op| state.access.allows_operation(role, domain, op))
}

fn signed_in(req: &Request) -> Result<Caller, ApiError> {
    let (state, ctx) = guarded(req)?;
    let Some(session) = ctx.session.clone() else {
        return Err(ApiError::unauthenticated());
    };
    if !policy_allows(state, &ctx, session.role.as_str(), &session.access_domain()) {
        return Err(ApiError::forbidden());
    }
    if let Some(module) = ctx.module
        && session.tenant.is_some()
        && !session.modules.iter().any(|m| m == module)
    {
        return Err(module_disabled(module));
    }
    Ok(Caller {
        actor: session.actor(ctx.ip),
        session,
    })
}

/// 403 `module_disabled`: the operation belongs to `module`, which the
/// caller's organisation does not have.
pub fn module_disabled(module: &str) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "module_disabled",
        format!(
            "{} is not part of your organisation's plan. Ask your platform administrator to add the module if you need it.",
            module_name(module)
        ),
    )
}

async fn authorize_signed_in(req: &Request, _cookie: ApiKey) -> poem::Result<Caller> {
    Ok(signed_in(req)?)
}

async fn authorize_tenant(req: &Request, _cookie: ApiKey) -> poem::Result<TenantCaller> {
    let Caller { session, actor } = signed_in(req)?;
    let tenant = session.tenant.clone().ok_or_else(ApiError::forbidden)?;
    Ok(TenantCaller {
        session,
        tenant,
        actor,
    })
}

/// For the operations anyone may call (sign-in, health): still asks the
/// policy, with the caller's role or `anonymous`.
pub fn authorize_public(req: &Request) -> Result<RequestContext, ApiError> {
    let (state, ctx) = guarded(req)?;
    let (role, domain) = match &ctx.session {
        Some(s) => (s.role.as_str().to_string(), s.access_domain()),
        None => (ANONYMOUS.to_string(), "*".to_string()),
    };
    if policy_allows(state, &ctx, &role, &domain) {
        Ok(ctx)
    } else {
        Err(ApiError::forbidden())
    }
}

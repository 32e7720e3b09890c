//! Sign-in, sessions, CSRF and the per-request guard.

pub mod api;
pub mod guard;
pub mod password;
pub mod session;
pub mod throttle;

pub use guard::{RequestContext, SessionAuth};
pub use session::Session;

/// Name of the private session cookie.
pub const SESSION_COOKIE: &str = "brandops_session";
/// Header that must carry the session's CSRF token on unsafe methods.
pub const CSRF_HEADER: &str = "x-csrf-token";

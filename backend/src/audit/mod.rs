//! The audit log: who did what, to whom, when (`platform.audit_log`).

pub mod store;

use uuid::Uuid;

pub use store::record;

/// Who performed an action: a signed-in account, or the command line.
#[derive(Clone, Debug)]
pub struct Actor {
    pub account_id: Option<Uuid>,
    pub email: String,
    pub ip: Option<String>,
}

impl Actor {
    /// Work done by the operator through the `brandops` command.
    pub fn cli() -> Self {
        Self {
            account_id: None,
            email: "cli".into(),
            ip: None,
        }
    }
}

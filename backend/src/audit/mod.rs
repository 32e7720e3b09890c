//! The audit log: who did what, to whom, when (`platform.audit_log`), for
//! every domain. Infrastructure: it imports no domain module.
//!
//! - from a platform transaction: [`record`];
//! - from a tenant's transaction, with the change it records:
//!   [`record_own_tenant`] (the domain's prefix must be listed in
//!   `platform.tenant_audit_domains`, see `docs/adding-a-domain.md`).

pub mod store;

use uuid::Uuid;

pub use store::{record, record_own_tenant};

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

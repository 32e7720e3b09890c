//! The signed-in user's organisation (tenant): its name, kind, limits, usage
//! and modules, for the /configuration and /ui/table pages, and the
//! dashboard's "Get started" checklist (`get_started`). The name shown
//! in the app is kept in the tenant's own schema (`org_settings`), where its
//! admins may change it; limits and modules are the platform's.

pub mod api;
pub mod get_started;
pub mod store;

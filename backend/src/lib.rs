//! brandops server library: everything `main.rs` and the tests start.
//!
//! Split by domain: `tenants` (onboarding, tenant transactions), `auth`
//! (passwords, sessions, CSRF), `access` (the Casbin policy), `users`
//! (organisation users), `me` and `organisation` (the signed-in user's own
//! data), `health`. `startup` wires them into one poem application.

pub mod access;
pub mod accounts;
pub mod api;
pub mod audit;
pub mod auth;
pub mod config;
pub mod db;
pub mod error;
pub mod health;
pub mod me;
pub mod migrate;
pub mod organisation;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod tenants;
pub mod users;

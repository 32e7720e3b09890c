//! HTTP infrastructure: the API assembly, the error envelope, the request
//! guard and security schemes, the access policy, start-up and health.
//! Domains (`accounts`, `auth`, `organisation`, `tenants`, ...) plug their
//! `#[OpenApi]` structs into [`api::Apis`].

pub mod access;
pub mod api;
pub mod error;
pub mod guard;
pub mod health;
pub mod input;
pub mod modules;
pub mod operations;
pub mod rate_limit;
pub mod security;
pub mod startup;
pub mod state;
pub mod tags;

//! HTTP infrastructure: the error envelope, the request guard and security
//! schemes, the access policy, the operations table, input rules, rate
//! limits, health and the HTML escape of server-rendered pages. It imports
//! no domain: the composition root (`crate::app`) assembles the domains'
//! `#[OpenApi]` structs, routes and state, and starts the server.

pub mod access;
pub mod csv;
pub mod error;
pub mod fields;
pub mod guard;
pub mod health;
pub mod html;
pub mod input;
pub mod modules;
pub mod operations;
pub mod rate_limit;
pub mod response;
pub mod security;
pub mod state;
pub mod tags;

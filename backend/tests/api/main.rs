//! The one integration-test binary: black-box tests against a real server on
//! a fresh PostgreSQL database per test. `helpers.rs` starts servers and
//! creates tenants and accounts; each other file tests one domain or one
//! concern.

mod helpers;

mod access;
mod auth;
mod batch_updates;
mod brand_identity;
mod code_download;
mod codes;
mod companies;
mod contract;
mod docs;
mod epcis;
mod headers;
mod input;
mod inventory;
mod isolation;
mod labels;
mod limits;
mod logistics;
mod lots;
mod manufacturing;
mod me;
mod modules;
mod openapi;
mod organisation;
mod parties;
mod passports;
mod pricing;
mod procurement;
mod product_images;
mod products;
mod public_contract;
mod quality;
mod resolver_conformance;
mod reviews;
mod scans;
mod server;
mod sql;
mod supply_chain;
mod tenancy;
mod trace;
mod users;
mod verdict;

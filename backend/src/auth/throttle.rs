//! Sign-in throttling rules, per account and per client address.
//!
//! Failures are counted in a 15-minute window. Past a threshold each further
//! failure locks the key for a delay (30 s, then doubling), capped at 15
//! minutes, and the lock always expires: an attacker can slow a victim's
//! sign-in down but never lock them out for good. A successful sign-in clears
//! the account key. The counting itself is SQL, in `store.rs`.

pub const WINDOW_SECS: f64 = 15.0 * 60.0;
pub const MAX_LOCK_SECS: f64 = 15.0 * 60.0;
/// Failures per account before delays start.
pub const ACCOUNT_THRESHOLD: i32 = 5;
/// Failures per address before delays start (an office shares one address).
pub const ADDRESS_THRESHOLD: i32 = 30;

pub fn account_key(email: &str) -> String {
    format!("account:{}", email.trim().to_lowercase())
}

pub fn address_key(ip: &str) -> String {
    format!("ip:{ip}")
}

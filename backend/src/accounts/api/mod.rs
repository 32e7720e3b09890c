//! The accounts domain's operations, one file per group: `users` (the
//! organisation's users, with the spec's calls) and `me` (the signed-in
//! user's own profile, password and preferences).

pub mod me;
pub mod users;

//! Organisation users: the All Users page's calls (`/api/account-info`,
//! `/api/client-auth`), with the spec's exact paths, actions and answers.

pub mod api;

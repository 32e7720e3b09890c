//! Accounts: who can sign in. Identity lives in `platform.accounts`; each
//! account belongs to one tenant with one role (platform admins to none).
//! The domain covers the organisation's users (the All Users page) and each
//! user's own profile, password and preferences.
//!
//! Input is parsed into these newtypes at the boundary, so code past the
//! handlers never sees an unchecked email, name, role or password.

pub mod api;
pub mod store;

use poem::http::StatusCode;
use poem_openapi::registry::MetaSchema;
use uuid::Uuid;

use crate::http::access::Access;
use crate::http::error::ApiError;
use crate::http::input::{TextRule, no_control_chars, plain_name, plain_text};
use crate::http::operations::OperationId;
use crate::tenants::TenantKind;
use crate::{control_class, direction_mark_class, trimmed_plain_text_pattern, whitespace_class};

/// The exact answer when the organisation is at its user limit.
pub const USER_LIMIT_REACHED: &str = "You have reached limit to add users.";

/// What `platform.tenant_add_account` raises at the user limit.
pub const USER_LIMIT_SQLSTATE: &str = "BO001";

/// The one answer for an email that cannot be used for a new account, taken
/// here or in another organisation alike (which is not ours to tell).
pub const EMAIL_CANNOT_BE_USED: &str =
    "This email address cannot be used for a new account. Use another address.";

pub use crate::identity::Role;

/// A lower-cased email address matching the spec's pattern: text, one `@`,
/// text, a dot, text, no whitespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(ApiError::invalid_input("Email is required."));
        }
        plain_text("Email", &email)?;
        let valid = email.len() <= 254
            && !email.chars().any(char::is_whitespace)
            && email.matches('@').count() == 1
            && email.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty()
                    && domain
                        .rsplit_once('.')
                        .is_some_and(|(host, tld)| !host.is_empty() && !tld.is_empty())
            });
        if !valid {
            return Err(ApiError::invalid_input(
                "Invalid Email format. Use an address like name@example.com.",
            ));
        }
        Ok(Self(email))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// [`Email::parse`]'s rule in the contract (its 254 is in bytes, the
/// schema's in characters: the same for the usual ASCII addresses).
pub const EMAIL_PATTERN: &str = concat!(
    "^[",
    whitespace_class!(),
    "]*",
    "[^@",
    whitespace_class!(),
    control_class!(),
    direction_mark_class!(),
    "]+",
    "@[^@",
    whitespace_class!(),
    control_class!(),
    direction_mark_class!(),
    "]+",
    "[.][^@.",
    whitespace_class!(),
    control_class!(),
    direction_mark_class!(),
    "]+",
    "[",
    whitespace_class!(),
    "]*$"
);

impl TextRule for Email {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(EMAIL_PATTERN.into());
        schema.max_length = Some(254);
    }
}

/// A person's display name: 1 to 200 characters after trimming.
#[derive(Clone, Debug)]
pub struct PersonName(String);

impl PersonName {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ApiError::invalid_input("Name is required."));
        }
        plain_name("Name", name)?;
        if name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "Name is too long (200 characters at most).",
            ));
        }
        Ok(Self(name.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// [`PersonName::parse`]'s rule in the contract: 1 to 200 characters once
/// trimmed, no control characters or text-direction marks.
pub const PERSON_NAME_PATTERN: &str = trimmed_plain_text_pattern!(198);

impl TextRule for PersonName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(PERSON_NAME_PATTERN.into());
    }
}

pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;

/// A new password that meets the length rules (8 to 128 characters).
pub struct NewPassword(String);

impl NewPassword {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let n = raw.chars().count();
        if n == 0 {
            return Err(ApiError::invalid_input("Password is required."));
        }
        no_control_chars("Password", raw)?;
        if n < PASSWORD_MIN {
            return Err(ApiError::invalid_input(format!(
                "Password is too short: use at least {PASSWORD_MIN} characters."
            )));
        }
        if n > PASSWORD_MAX {
            return Err(ApiError::invalid_input(format!(
                "Password is too long: use at most {PASSWORD_MAX} characters."
            )));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// A password's characters in the contract: anything but control characters.
pub const PASSWORD_PATTERN: &str = concat!("^[^", control_class!(), "]*$");

impl TextRule for NewPassword {
    fn limits(schema: &mut MetaSchema) {
        schema.min_length = Some(PASSWORD_MIN);
        schema.max_length = Some(PASSWORD_MAX);
        schema.pattern = Some(PASSWORD_PATTERN.into());
    }
}

/// An account as the API shows it to organisation admins.
#[derive(poem_openapi::Object, sqlx::FromRow, Clone, Debug)]
pub struct AccountSummary {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub role: String,
}

/// A new account, ready to insert (its password already hashed).
pub struct NewAccount {
    pub email: Email,
    pub name: PersonName,
    pub role: Role,
    pub password_hash: String,
}

/// The role of a new user as the contract shows it: `worker`, `manager` or
/// `employee` in any case, or nothing (the organisation's default); which of
/// them an organisation has is [`new_user_role`]'s business (403 otherwise).
pub struct NewUserRole;

impl TextRule for NewUserRole {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(
            concat!(
                "^[", whitespace_class!(), "]*",
                "(?:[Ww][Oo][Rr][Kk][Ee][Rr]|[Mm][Aa][Nn][Aa][Gg][Ee][Rr]|[Ee][Mm][Pp][Ll][Oo][Yy][Ee][Ee])?",
                "[", whitespace_class!(), "]*$"
            )
            .into(),
        );
    }
}

/// The roles an organisation admin of `kind` gives new users, the default
/// first: brands have workers (the spec's default) and managers, client
/// organisations employees. The one table of it: the users API
/// ([`new_user_role`]) enforces it and the session answers it
/// ([`roles_to_offer`]), so the Add User form offers exactly what the server
/// accepts.
pub fn assignable_roles(kind: TenantKind) -> &'static [Role] {
    match kind {
        TenantKind::Brand => &[Role::Worker, Role::Manager],
        TenantKind::Client => &[Role::Employee],
    }
}

/// What [`new_user_role`] says when a role is refused: the roles `kind` has.
fn assignable_rule(kind: TenantKind) -> String {
    let names: Vec<&str> = assignable_roles(kind).iter().map(|r| r.as_str()).collect();
    let list = match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    match kind {
        TenantKind::Brand => format!("Role must be {list}."),
        TenantKind::Client => format!("Role must be {list} in a client organisation."),
    }
}

/// The role of a new user in an organisation of `kind`: one of
/// [`assignable_roles`], the first when none is given. A role the contract
/// knows but this organisation does not give (an employee in a brand, a
/// worker in a client organisation) is refused with 403 `role_not_allowed`
/// (the request is well formed, this caller may not do it); any other text
/// with 400.
pub fn new_user_role(kind: TenantKind, raw: Option<&str>) -> Result<Role, ApiError> {
    let roles = assignable_roles(kind);
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(roles[0]);
    };
    let named = Role::ALL
        .into_iter()
        .filter(|r| r.managed_by_org_admins())
        .find(|r| r.as_str().eq_ignore_ascii_case(raw));
    match named {
        Some(role) if roles.contains(&role) => Ok(role),
        Some(_) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "role_not_allowed",
            assignable_rule(kind),
        )),
        None => Err(ApiError::invalid_input(assignable_rule(kind))),
    }
}

/// The operation that adds a user (`POST /api/client-auth`, `adduser`).
const ADD_USER_OPERATION: OperationId = OperationId("manageOrgUser");

/// The roles a signed-in `role` in `domain` (an organisation of `kind`; none
/// for platform admins) may give new users, as the session answers them:
/// none unless the policy lets it call the add-user operation, then the
/// organisation's [`assignable_roles`]. The same two checks the users API
/// makes (the guard asks the policy, [`new_user_role`] the table).
pub fn roles_to_offer(
    access: &Access,
    role: Role,
    domain: &str,
    kind: Option<TenantKind>,
) -> Vec<Role> {
    match kind {
        Some(kind) if access.allows_operation(role.as_str(), domain, ADD_USER_OPERATION) => {
            assignable_roles(kind).to_vec()
        }
        _ => Vec::new(),
    }
}

/// A page to open after signing in: an app path such as `/` or `/products`.
pub struct LandingPage(String);

impl LandingPage {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let landing = raw.trim();
        let valid = landing.starts_with('/')
            && landing.len() <= 200
            && landing
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-'));
        if !valid {
            return Err(ApiError::invalid_input(
                "landingPage must be an app path such as / or /products.",
            ));
        }
        Ok(Self(landing.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for LandingPage {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(
            concat!(
                "^[",
                whitespace_class!(),
                "]*/[A-Za-z0-9/_-]{0,199}[",
                whitespace_class!(),
                "]*$"
            )
            .into(),
        );
    }
}

crate::text_parser!(Email, PersonName, NewPassword, LandingPage);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_pattern() {
        for ok in ["a@b.co", "First.Last@Example.com", " x@y.z "] {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "", "a", "a@b", "a@@b.c", "a b@c.d", "@b.c", "a@.c", "a@b.", "a@b@c.d",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Email::parse("A@B.CO").unwrap().as_str(), "a@b.co");
    }

    #[test]
    fn password_lengths() {
        assert!(NewPassword::parse("1234567").is_err());
        assert!(NewPassword::parse("12345678").is_ok());
        assert!(NewPassword::parse(&"x".repeat(128)).is_ok());
        assert!(NewPassword::parse(&"x".repeat(129)).is_err());
    }

    #[test]
    fn organisations_give_the_roles_they_have() {
        for kind in [TenantKind::Brand, TenantKind::Client] {
            let roles = assignable_roles(kind);
            let expected: Vec<Role> = Role::ALL
                .into_iter()
                .filter(|r| r.managed_by_org_admins() && r.belongs_to(kind))
                .collect();
            assert_eq!(roles.len(), expected.len(), "{kind:?}");
            assert!(expected.iter().all(|r| roles.contains(r)), "{kind:?}");
            assert_eq!(new_user_role(kind, None).unwrap(), roles[0]);
            for role in roles {
                assert_eq!(new_user_role(kind, Some(role.as_str())).unwrap(), *role);
            }
        }
        assert_eq!(
            new_user_role(TenantKind::Brand, None).unwrap(),
            Role::Worker
        );
        assert_eq!(
            new_user_role(TenantKind::Brand, Some(" MANAGER ")).unwrap(),
            Role::Manager
        );
        let refused = |kind, raw| new_user_role(kind, Some(raw)).unwrap_err();
        let e = refused(TenantKind::Brand, "employee");
        assert_eq!(
            (e.status, e.code, e.message.as_str()),
            (
                StatusCode::FORBIDDEN,
                "role_not_allowed",
                "Role must be worker or manager."
            )
        );
        let e = refused(TenantKind::Client, "Worker");
        assert_eq!(
            (e.status, e.message.as_str()),
            (
                StatusCode::FORBIDDEN,
                "Role must be employee in a client organisation."
            )
        );
        let e = refused(TenantKind::Client, "admin");
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
    }

    #[test]
    fn roles_round_trip() {
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("root"), None);
    }
}

//! The database roles the server logs in as, and their passwords.
//!
//! - the *owner* (`DATABASE_URL`): migrations and provisioning only;
//! - the *platform role* `<db>_app`: a LOGIN role with DML on the platform
//!   tables (identities, sessions, throttle, audit), member of no role, with
//!   no privilege on any tenant schema;
//! - one LOGIN role per tenant, `<db>_<schema>`: its own schema only (its
//!   `search_path` is set on the role), plus EXECUTE on the `platform.tenant_*`
//!   functions through the group role `<db>_tenants`.
//!
//! No password is stored anywhere: each is an HMAC of the role name under
//! the server's `DB_ROLE_SECRET`, so the server can always derive it and the
//! owner can always (re)set it. PostgreSQL is given a SCRAM-SHA-256 verifier
//! computed here, never the password itself, so the password cannot reach a
//! server log through an `ALTER ROLE` statement.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::config::Secret;

type HmacSha256 = Hmac<Sha256>;

/// Iterations of the SCRAM verifier (PostgreSQL's default).
const SCRAM_ITERATIONS: u32 = 4096;

/// Names derived from the database, so several databases (one per test) can
/// share a PostgreSQL cluster, whose roles are cluster-wide; and the secret
/// the roles' passwords are derived from.
#[derive(Clone, Debug)]
pub struct DbRoles {
    pub role_prefix: String,
    /// The platform LOGIN role.
    pub platform_role: String,
    /// NOLOGIN group of every tenant role: USAGE on the platform schema and
    /// EXECUTE on its `tenant_*` functions, nothing else.
    pub tenant_group: String,
    secret: Secret,
}

impl DbRoles {
    pub fn for_database(database: &str, secret: Secret) -> Self {
        let mut prefix: String = database
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(24)
            .collect();
        if !prefix.starts_with(|c: char| c.is_ascii_lowercase()) {
            prefix.insert(0, 'd');
        }
        Self {
            platform_role: format!("{prefix}_app"),
            tenant_group: format!("{prefix}_tenants"),
            role_prefix: prefix,
            secret,
        }
    }

    /// The role of the tenant whose schema is `schema`.
    pub fn tenant_role(&self, schema: &str) -> String {
        format!("{}_{}", self.role_prefix, schema)
    }

    /// The login password of `role`: hex HMAC-SHA256 of its name.
    pub fn password_for(&self, role: &str) -> String {
        hex::encode(self.mac(b"brandops database role\0", role.as_bytes()))
    }

    /// The SCRAM-SHA-256 verifier of `role`'s password, in the form
    /// `ALTER ROLE … PASSWORD` accepts, with a fresh random salt.
    pub fn scram_verifier(&self, role: &str) -> String {
        let salt: [u8; 16] = rand::random();
        scram_verifier(&self.password_for(role), &salt, SCRAM_ITERATIONS)
    }

    fn mac(&self, context: &[u8], message: &[u8]) -> Vec<u8> {
        let mut mac = HmacSha256::new_from_slice(self.secret.expose().as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(context);
        mac.update(message);
        mac.finalize().into_bytes().to_vec()
    }
}

/// RFC 5802 / RFC 7677, as PostgreSQL stores it:
/// `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`. The password
/// is ASCII hex, which SASLprep leaves unchanged.
fn scram_verifier(password: &str, salt: &[u8], iterations: u32) -> String {
    let mut salted = [0u8; 32];
    pbkdf2::pbkdf2_hmac::<Sha256>(password.as_bytes(), salt, iterations, &mut salted);
    let hmac = |key: &[u8], msg: &[u8]| {
        let mut m = HmacSha256::new_from_slice(key).expect("any key length");
        m.update(msg);
        m.finalize().into_bytes()
    };
    let client_key = hmac(&salted, b"Client Key");
    let stored_key = Sha256::digest(client_key);
    let server_key = hmac(&salted, b"Server Key");
    format!(
        "SCRAM-SHA-256${iterations}:{}${}:{}",
        B64.encode(salt),
        B64.encode(stored_key),
        B64.encode(server_key)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(secret: &str) -> DbRoles {
        DbRoles::for_database("t_0123456789ab", Secret::new(secret))
    }

    #[test]
    fn passwords_differ_per_role_and_per_secret() {
        let a = roles("one secret that is long enough......");
        let b = roles("another secret that is long enough..");
        assert_eq!(a.password_for("x"), a.password_for("x"));
        assert_ne!(a.password_for("x"), a.password_for("y"));
        assert_ne!(a.password_for("x"), b.password_for("x"));
        assert_eq!(a.password_for("x").len(), 64);
    }

    #[test]
    fn names_carry_the_database() {
        let r = roles("s");
        assert_eq!(r.platform_role, "t_0123456789ab_app");
        assert_eq!(r.tenant_group, "t_0123456789ab_tenants");
        assert_eq!(r.tenant_role("brand_acme"), "t_0123456789ab_brand_acme");
        let odd = DbRoles::for_database("9-Brand Ops", Secret::new("s"));
        assert_eq!(odd.role_prefix, "d9_brand_ops");
    }

    /// RFC 7677's example password and salt; the expected keys were computed
    /// independently with Python's hashlib (pbkdf2_hmac, hmac, sha256). The
    /// integration tests also log in with these verifiers.
    #[test]
    fn scram_verifier_matches_rfc_7677() {
        let salt = B64.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        let v = scram_verifier("pencil", &salt, 4096);
        assert_eq!(
            v,
            "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU="
        );
    }
}

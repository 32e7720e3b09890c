//! Reviews: a consumer who scanned a genuine pack rates it (1 to 5) and says
//! something on the scan page; the brand's people read the reviews, filter
//! them and hide the ones that should not count.
//!
//! - `mod.rs`: a review as the API shows it, the rules of its text, and the
//!   review token that ties a review to a real scan;
//! - `public.rs`: `POST /r/review`, the scan page's form (no sign-in: the
//!   token is the proof of a scan);
//! - `api.rs`: the brand's operations under `/api/reviews`;
//! - `store.rs`: the SQL of `reviews` (tenant schema).
//!
//! The same token lets the scan page add the consumer's place to its scan
//! (`scans::locate`). A review token is `{tenant}.{scan}.{issued}.{mac}`: the tenant's id, the
//! scan's id, the issue time (Unix seconds) and an HMAC-SHA256 of the three
//! under a key derived from the server's `DB_ROLE_SECRET`. It cannot be made
//! for another scan or tenant, it expires after [`TOKEN_DAYS`] days, and a
//! scan takes one review.

pub mod api;
pub mod public;
pub mod store;

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use poem_openapi::Object;
use sha2::Sha256;
use uuid::Uuid;

type HmacSha256 = Hmac<Sha256>;

/// How long after a scan its review may be left.
pub const TOKEN_DAYS: i64 = 30;
/// The longest review text, in characters.
pub const MAX_TEXT: usize = 1000;

/// A review as the brand sees it.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct Review {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub skuid: String,
    /// 1 to 5.
    pub rating: i16,
    /// What the consumer wrote, as plain text.
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// Hidden reviews are kept, and left out of ratings shown to others.
    pub hidden: bool,
}

/// The key review tokens are signed with.
#[derive(Clone)]
pub struct TokenKey([u8; 32]);

impl TokenKey {
    /// Derives the key from the server's secret, for this purpose only.
    pub fn derive(secret: &str) -> Self {
        let mut mac =
            HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
        mac.update(b"brandops scan review tokens v1");
        Self(mac.finalize().into_bytes().into())
    }

    fn mac(&self, tenant: Uuid, scan: i64, issued: i64) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(format!("{tenant}.{scan}.{issued}").as_bytes());
        mac
    }

    /// A token for a review of `scan` in `tenant`.
    pub fn sign(&self, tenant: Uuid, scan: i64, now: DateTime<Utc>) -> String {
        let issued = now.timestamp();
        let mac = self.mac(tenant, scan, issued).finalize().into_bytes();
        format!("{tenant}.{scan}.{issued}.{}", hex::encode(mac))
    }

    /// Hours since a token was issued (its signature is not checked here).
    pub fn age_hours(&self, token: &str, now: DateTime<Utc>) -> Option<i64> {
        let issued: i64 = token.split('.').nth(2)?.parse().ok()?;
        Some((now.timestamp() - issued) / 3600)
    }

    /// The tenant and scan of a token this server signed and that has not
    /// expired; `None` for anything else.
    pub fn verify(&self, token: &str, now: DateTime<Utc>) -> Option<(Uuid, i64)> {
        let mut parts = token.splitn(4, '.');
        let tenant: Uuid = parts.next()?.parse().ok()?;
        let scan: i64 = parts.next()?.parse().ok()?;
        let issued: i64 = parts.next()?.parse().ok()?;
        let sent = hex::decode(parts.next()?).ok()?;
        self.mac(tenant, scan, issued).verify_slice(&sent).ok()?;
        let age = now.timestamp() - issued;
        (0..=TOKEN_DAYS * 86_400)
            .contains(&age)
            .then_some((tenant, scan))
    }
}

/// A review's text: trimmed, at most [`MAX_TEXT`] characters, no control
/// characters but line breaks. Markup is kept as the text it is.
pub fn review_text(raw: &str) -> Result<String, String> {
    let text = raw.trim().replace("\r\n", "\n");
    if text.chars().count() > MAX_TEXT {
        return Err(format!(
            "Your review is too long: {MAX_TEXT} characters at most."
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err("Your review has characters that cannot be shown.".into());
    }
    Ok(text)
}

/// A rating: a whole number from 1 to 5.
pub fn rating(raw: &str) -> Result<i16, String> {
    match raw.trim().parse::<i16>() {
        Ok(n) if (1..=5).contains(&n) => Ok(n),
        _ => Err("Choose a rating from 1 to 5 stars.".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_one_scan_and_expire() {
        let key = TokenKey::derive("a secret of at least thirty-two characters");
        let tenant = Uuid::new_v4();
        let now = Utc::now();
        let token = key.sign(tenant, 42, now);
        assert_eq!(key.verify(&token, now), Some((tenant, 42)));
        // Another scan with the same MAC, another key, a late use: refused.
        let forged = token.replacen(".42.", ".43.", 1);
        assert_eq!(key.verify(&forged, now), None);
        let other = TokenKey::derive("another secret of at least thirty-two chars");
        assert_eq!(other.verify(&token, now), None);
        let late = now + chrono::Duration::days(TOKEN_DAYS + 1);
        assert_eq!(key.verify(&token, late), None);
        assert_eq!(key.verify("garbage", now), None);
    }

    #[test]
    fn review_rules() {
        assert_eq!(rating("5"), Ok(5));
        assert!(rating("0").is_err() && rating("6").is_err() && rating("x").is_err());
        assert_eq!(
            review_text("  <b>good</b>\r\nyes "),
            Ok("<b>good</b>\nyes".into())
        );
        assert!(review_text(&"x".repeat(MAX_TEXT + 1)).is_err());
        assert!(review_text("bell\u{7}").is_err());
    }
}

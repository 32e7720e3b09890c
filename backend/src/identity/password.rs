//! argon2id password hashing (m = 19456 KiB, t = 2, p = 1), run on the
//! blocking pool behind a semaphore so a burst of sign-ins cannot exhaust
//! memory or starve the async runtime.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

pub struct Passwords {
    permits: Arc<Semaphore>,
    /// Verified against when the email is unknown, so that answer takes as
    /// long as a wrong password.
    dummy_hash: String,
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

fn hash_blocking(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Ok(argon2()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))?
        .to_string())
}

impl Passwords {
    pub fn new(concurrency: usize) -> anyhow::Result<Self> {
        Ok(Self {
            permits: Arc::new(Semaphore::new(concurrency.max(1))),
            dummy_hash: hash_blocking("not a real password, only for timing")?,
        })
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || hash_blocking(&password)).await?
    }

    /// Checks `password` against `stored`; with no stored hash (unknown
    /// account) it does the same work and answers false.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await?;
        let known = stored.is_some();
        let hash = stored.unwrap_or(&self.dummy_hash).to_string();
        let password = password.to_string();
        let ok = tokio::task::spawn_blocking(move || {
            PasswordHash::new(&hash)
                .map(|parsed| {
                    argon2()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
                .unwrap_or(false)
        })
        .await?;
        Ok(known && ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hash_and_verify() {
        let p = Passwords::new(2).unwrap();
        let h = p.hash("correct horse").await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(p.verify("correct horse", Some(&h)).await.unwrap());
        assert!(!p.verify("wrong horse", Some(&h)).await.unwrap());
        assert!(!p.verify("correct horse", None).await.unwrap());
    }
}

//! Which brand holds a GTIN, remembered for a few seconds: the resolver asks
//! on every scan, and the answer (the platform's GTIN registry) changes only
//! when a brand registers or gives up a GTIN or is suspended.
//!
//! Only found holders are remembered, so a GTIN that a brand has just
//! registered resolves at once, and links with made-up GTINs cannot fill
//! the memory. A holder is trusted for [`TTL`] at most: a GTIN a brand gave
//! up, or a suspended brand, stops resolving within that time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::PgPool;

use crate::tenants::TenantRef;

/// How long a holder is trusted.
pub const TTL: Duration = Duration::from_secs(10);

/// GTINs remembered at most; when full, expired ones are forgotten, and if
/// none has expired, all are.
const MAX_REMEMBERED: usize = 50_000;

/// A handle: clones share what is remembered (the root registers it as
/// the resolver's `Data`).
#[derive(Default, Clone)]
pub struct GtinHolders {
    known: Arc<Mutex<HashMap<String, (TenantRef, Instant)>>>,
}

impl GtinHolders {
    /// The active tenant that holds the GTIN-14, if any.
    pub async fn holder(&self, platform: &PgPool, gtin: &str) -> anyhow::Result<Option<TenantRef>> {
        let now = Instant::now();
        if let Some((tenant, at)) = self.lock().get(gtin)
            && now.duration_since(*at) < TTL
        {
            return Ok(Some(tenant.clone()));
        }
        let found = super::store::gtin_holder(platform, gtin).await?;
        let mut known = self.lock();
        match &found {
            Some(tenant) => {
                if known.len() >= MAX_REMEMBERED {
                    known.retain(|_, (_, at)| now.duration_since(*at) < TTL);
                    if known.len() >= MAX_REMEMBERED {
                        known.clear();
                    }
                }
                known.insert(gtin.to_owned(), (tenant.clone(), now));
            }
            None => {
                known.remove(gtin);
            }
        }
        Ok(found)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (TenantRef, Instant)>> {
        // Each change is one map operation: a poisoned lock is still usable.
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }
}

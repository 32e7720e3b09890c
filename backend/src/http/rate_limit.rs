//! A token bucket per client address, in the server's memory: the public
//! resolver's scans, the scan page's reviews and shared places each have one
//! (ADR 0014).
//!
//! Memory is bounded without ever walking every address on a request: the
//! buckets live in two generations. A request finds its address in the
//! current one, or moves it there from the previous one; when the current
//! generation is full, it becomes the previous one and the one before is
//! forgotten (at most [`MAX_TRACKED`] addresses each). A forgotten address
//! starts again with a full bucket, as a new one would: only addresses that
//! were quiet while [`MAX_TRACKED`] others came in are forgotten.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Addresses remembered per generation at most.
pub const MAX_TRACKED: usize = 100_000;

/// Tokens left and when they were counted.
type Bucket = (f64, Instant);

#[derive(Default)]
struct Generations {
    current: HashMap<IpAddr, Bucket>,
    previous: HashMap<IpAddr, Bucket>,
}

/// The bucket an address counts in: an IPv4 address (an IPv4-mapped IPv6
/// one too) as it is, an IPv6 address by its /64, the block one site or
/// household gets, so that a client cannot walk through the addresses of
/// its own prefix for fresh buckets.
fn bucket_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// A handle: clones share the buckets.
#[derive(Clone)]
pub struct RateLimiter {
    per_minute: f64,
    buckets: Arc<Mutex<Generations>>,
}

impl RateLimiter {
    /// `per_minute` requests a minute per address, in bursts of as many.
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute: f64::from(per_minute.max(1)),
            buckets: Arc::new(Mutex::new(Generations::default())),
        }
    }

    /// Takes a token for `ip`; false when its bucket is empty. A request
    /// with no known address is not limited here.
    pub fn allow(&self, ip: Option<IpAddr>) -> bool {
        self.allow_at(ip, Instant::now())
    }

    fn allow_at(&self, ip: Option<IpAddr>, now: Instant) -> bool {
        let Some(ip) = ip.map(bucket_key) else {
            return true;
        };
        // Each change is a few map operations: a poisoned lock is usable.
        let mut g = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let capacity = self.per_minute;
        let found = g
            .current
            .get(&ip)
            .copied()
            .or_else(|| g.previous.remove(&ip));
        if found.is_none() && g.current.len() >= MAX_TRACKED {
            g.previous = std::mem::take(&mut g.current);
        }
        let (tokens, seen) = found.unwrap_or((capacity, now));
        let refill = now.saturating_duration_since(seen).as_secs_f64() * capacity / 60.0;
        let tokens = (tokens + refill).min(capacity);
        let (left, allowed) = if tokens >= 1.0 {
            (tokens - 1.0, true)
        } else {
            (tokens, false)
        };
        g.current.insert(ip, (left, now));
        allowed
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::time::Duration;

    use super::*;

    fn ip(n: u32) -> Option<IpAddr> {
        Some(IpAddr::V4(Ipv4Addr::from(n)))
    }

    #[test]
    fn an_address_gets_its_rate_and_refills_with_time() {
        let limiter = RateLimiter::new(3);
        let t = Instant::now();
        assert!((0..3).all(|_| limiter.allow_at(ip(1), t)));
        assert!(!limiter.allow_at(ip(1), t));
        // Another address has its own bucket.
        assert!(limiter.allow_at(ip(2), t));
        // A token comes back every 20 s.
        assert!(!limiter.allow_at(ip(1), t + Duration::from_secs(19)));
        assert!(limiter.allow_at(ip(1), t + Duration::from_secs(40)));
        // No address: not limited here.
        assert!((0..10).all(|_| limiter.allow_at(None, t)));
    }

    #[test]
    fn memory_is_bounded_and_busy_addresses_are_kept() {
        let limiter = RateLimiter::new(1);
        let t = Instant::now();
        assert!(limiter.allow_at(ip(0), t));
        for n in 1..=(3 * MAX_TRACKED as u32) {
            limiter.allow_at(ip(n), t);
            if n % 1000 == 0 {
                // An address that keeps coming is never forgotten.
                assert!(!limiter.allow_at(ip(0), t), "{n}");
            }
        }
        let g = limiter.buckets.lock().unwrap();
        assert!(g.current.len() <= MAX_TRACKED && g.previous.len() <= MAX_TRACKED);
    }

    #[test]
    fn ipv6_addresses_share_their_64s_bucket() {
        let limiter = RateLimiter::new(2);
        let now = Instant::now();
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(limiter.allow_at(Some(a), now));
        assert!(limiter.allow_at(Some(b), now));
        assert!(!limiter.allow_at(Some(a), now), "the /64 has spent its two");
        assert!(
            limiter.allow_at(Some(other), now),
            "another /64 has its own"
        );
        let mapped: IpAddr = "::ffff:198.51.100.9".parse().unwrap();
        let v4: IpAddr = "198.51.100.9".parse().unwrap();
        assert!(limiter.allow_at(Some(mapped), now));
        assert!(limiter.allow_at(Some(v4), now));
        assert!(!limiter.allow_at(Some(v4), now), "mapped and plain are one");
    }
}

//! Sign-in throttling rules (ADR 0009): refused only where the failures
//! came from, slowed down everywhere else.
//!
//! Failures are counted in a 15-minute window, on three keys:
//! - the account *from one address* ([`pair_key`]): past 5 failures each
//!   further attempt locks it for a delay (30 s, then doubling, capped at 15
//!   minutes), and while it is locked that address is refused for that
//!   account, the right password included;
//! - the account, from anywhere ([`account_key`]): past 5 failures, every
//!   sign-in of the account waits [`SLOW_DELAY`] before its password is
//!   checked, and is never refused, so a stranger who knows an admin's email
//!   cannot lock them out, however long they keep trying;
//! - the address, for any account ([`address_key`]): past 30 failures its
//!   sign-ins wait [`SLOW_DELAY`] too, and are never refused, so one
//!   attacker behind an office's proxy does not lock out the office.
//!
//! A successful sign-in clears the account's key and its key from that
//! address. Locks always expire. The counting itself is SQL, in `store.rs`.

pub const WINDOW_SECS: f64 = 15.0 * 60.0;
pub const MAX_LOCK_SECS: f64 = 15.0 * 60.0;
/// Failures per account before delays start.
pub const ACCOUNT_THRESHOLD: i32 = 5;
/// Failures per address before delays start (an office shares one address).
pub const ADDRESS_THRESHOLD: i32 = 30;
/// How long a sign-in waits before its password is checked when its account
/// or its address had many failures (instead of being refused).
pub const SLOW_DELAY: std::time::Duration = std::time::Duration::from_secs(2);

pub fn account_key(email: &str) -> String {
    format!("account:{}", email.trim().to_lowercase())
}

pub fn address_key(ip: &str) -> String {
    format!("ip:{ip}")
}

/// The account from one address (`unknown` when the address is not
/// known).
pub fn pair_key(email: &str, ip: Option<&str>) -> String {
    format!("{}|ip:{}", account_key(email), ip.unwrap_or("unknown"))
}

/// An account key's counter, as read under a row lock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counter {
    pub attempts: i32,
    pub window_expired: bool,
    /// Seconds the key stays locked, when it is locked now.
    pub locked_secs: Option<f64>,
}

/// What to do with one more attempt on a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Attempt {
    /// Locked: answer 429 and check nothing.
    Refused { wait_secs: i64 },
    /// Go ahead and check the password; store the new counter.
    Allowed {
        attempts: i32,
        reset_window: bool,
        /// Lock the key for this long from now (for the attempts after
        /// this one), when it reached the threshold.
        lock_secs: Option<f64>,
    },
}

/// The lock after the `attempts`-th attempt: none below the threshold, then
/// 30 s doubling per attempt, capped.
pub fn lock_after(attempts: i32, threshold: i32) -> Option<f64> {
    (attempts >= threshold)
        .then(|| (30.0 * 2f64.powi((attempts - threshold).min(20))).min(MAX_LOCK_SECS))
}

/// Counts an attempt *before* its password is checked. The attempt that
/// reaches the threshold is still checked and locks the key for the ones
/// after it, so however many arrive at once, at most `threshold` passwords
/// are checked per window and lock.
pub fn next_attempt(counter: Counter, threshold: i32) -> Attempt {
    if counter.window_expired {
        return Attempt::Allowed {
            attempts: 1,
            reset_window: true,
            lock_secs: lock_after(1, threshold),
        };
    }
    if let Some(secs) = counter.locked_secs.filter(|s| *s > 0.0) {
        return Attempt::Refused {
            wait_secs: secs.ceil().max(1.0) as i64,
        };
    }
    let attempts = counter.attempts + 1;
    Attempt::Allowed {
        attempts,
        reset_window: false,
        lock_secs: lock_after(attempts, threshold),
    }
}

/// Takes one attempt on `key` in its own transaction (the row lock makes
/// parallel attempts queue); `Some(seconds to wait)` when it is refused.
pub async fn take_attempt(
    pool: &sqlx::PgPool,
    key: &str,
    threshold: i32,
) -> Result<Option<i64>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let counter = super::store::throttle_counter(&mut tx, key).await?;
    let refused = match next_attempt(counter, threshold) {
        Attempt::Refused { wait_secs } => Some(wait_secs),
        Attempt::Allowed {
            attempts,
            reset_window,
            lock_secs,
        } => {
            super::store::throttle_save(&mut tx, key, attempts, reset_window, lock_secs).await?;
            None
        }
    };
    tx.commit().await?;
    Ok(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(attempts: i32, locked_secs: Option<f64>) -> Counter {
        Counter {
            attempts,
            window_expired: false,
            locked_secs,
        }
    }

    #[test]
    fn at_most_the_threshold_is_checked_then_locks_grow_and_expire() {
        let t = ACCOUNT_THRESHOLD;
        // Attempts 1..=4 go ahead unlocked; the 5th goes ahead and locks.
        for n in 0..t - 1 {
            assert_eq!(
                next_attempt(counter(n, None), t),
                Attempt::Allowed {
                    attempts: n + 1,
                    reset_window: false,
                    lock_secs: None
                }
            );
        }
        assert_eq!(
            next_attempt(counter(t - 1, None), t),
            Attempt::Allowed {
                attempts: t,
                reset_window: false,
                lock_secs: Some(30.0)
            }
        );
        // While locked, nothing is checked.
        assert_eq!(
            next_attempt(counter(t, Some(12.2)), t),
            Attempt::Refused { wait_secs: 13 }
        );
        // After the lock: one more try, and a longer lock.
        assert_eq!(
            next_attempt(counter(t, Some(-1.0)), t),
            Attempt::Allowed {
                attempts: t + 1,
                reset_window: false,
                lock_secs: Some(60.0)
            }
        );
        assert_eq!(lock_after(t + 40, t), Some(MAX_LOCK_SECS));
        // A new window starts over.
        let stale = Counter {
            attempts: 40,
            window_expired: true,
            locked_secs: Some(100.0),
        };
        assert_eq!(
            next_attempt(stale, t),
            Attempt::Allowed {
                attempts: 1,
                reset_window: true,
                lock_secs: None
            }
        );
    }
}

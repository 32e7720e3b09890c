//! Which codes (serialised packs) a package carries: the rule of
//! `shipment_codes` (tenant migration 0028).
//!
//! When a shipment ships, each package takes, of each lot it holds whose
//! lot has finished code jobs, the lot's next codes not shipped yet: one per
//! whole unit (a quantity's integer part; a fractional unit is not a pack),
//! in order of job (`code_jobs.seq`) then position. A job's codes are thus
//! shipped from position 1 on without gaps, so its next free position is
//! the largest position shipped plus one, and what a package took is a few
//! ranges of positions, never a row per code. Units beyond the lot's codes
//! take none: the package's EPCIS event keeps them as a quantity.
//!
//! The ship's transaction locks the lots first (`store::lock_coded_lots`),
//! then reads the jobs' free positions: parallel shipments of one lot take
//! their codes one after the other.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// A finished code job of a lot and how far its codes are shipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub seq: i32,
    /// Its codes: positions 1 to `quantity`.
    pub quantity: i32,
    /// The positions shipped: 1 to `used` (0: none).
    pub used: i32,
}

/// Positions `first` to `last` (both included) of job `job_seq`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub job_seq: i32,
    pub first: i32,
    pub last: i32,
}

impl Range {
    /// How many codes it is.
    pub fn count(&self) -> i64 {
        i64::from(self.last) - i64::from(self.first) + 1
    }
}

/// The packs in `quantity`: its whole units.
pub fn whole_units(quantity: Decimal) -> i64 {
    quantity.trunc().to_i64().unwrap_or(0).max(0)
}

/// Takes up to `units` codes of one lot's `jobs` (in order of seq), each
/// from its next free position, and marks them used: the ranges taken,
/// fewer units than asked when the lot's codes run out.
pub fn take(jobs: &mut [Job], units: i64) -> Vec<Range> {
    let mut left = units;
    let mut ranges = Vec::new();
    for job in jobs.iter_mut() {
        if left <= 0 {
            break;
        }
        let free = i64::from(job.quantity) - i64::from(job.used);
        if free <= 0 {
            continue;
        }
        let n = free.min(left);
        // n ≤ free, so the positions stay within the job's i32 quantity.
        let first = job.used + 1;
        let last = job.used + n as i32;
        ranges.push(Range {
            job_seq: job.seq,
            first,
            last,
        });
        job.used = last;
        left -= n;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> Vec<Job> {
        vec![
            Job {
                seq: 7,
                quantity: 3,
                used: 0,
            },
            Job {
                seq: 9,
                quantity: 4,
                used: 0,
            },
        ]
    }

    #[test]
    fn codes_are_taken_job_by_job_in_order_and_never_twice() {
        let mut j = jobs();
        assert_eq!(
            take(&mut j, 2),
            [Range {
                job_seq: 7,
                first: 1,
                last: 2
            }]
        );
        assert_eq!(
            take(&mut j, 4),
            [
                Range {
                    job_seq: 7,
                    first: 3,
                    last: 3
                },
                Range {
                    job_seq: 9,
                    first: 1,
                    last: 3
                }
            ]
        );
        // One code left; five asked: one range of one, four without codes.
        let last = take(&mut j, 5);
        assert_eq!(
            last,
            [Range {
                job_seq: 9,
                first: 4,
                last: 4
            }]
        );
        assert_eq!(last.iter().map(Range::count).sum::<i64>(), 1);
        assert!(take(&mut j, 3).is_empty());
        assert!(take(&mut jobs(), 0).is_empty());
    }

    #[test]
    fn a_job_partly_shipped_goes_on_from_its_next_position() {
        let mut j = jobs();
        j[0].used = 3;
        j[1].used = 1;
        assert_eq!(
            take(&mut j, 2),
            [Range {
                job_seq: 9,
                first: 2,
                last: 3
            }]
        );
    }

    #[test]
    fn only_whole_units_are_packs() {
        assert_eq!(whole_units(Decimal::new(25, 1)), 2);
        assert_eq!(whole_units(Decimal::new(999, 3)), 0);
        assert_eq!(whole_units(Decimal::from(12)), 12);
    }
}

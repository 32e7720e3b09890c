//! The work of a code job, run by [`crate::jobs`]: batches of random serials
//! written with `COPY`, each batch committed with the job's progress, so
//! `generated` is always exactly the codes stored. A job resumes from there
//! after a restart. The batch that finishes the job also stores the job's
//! EPCIS commissioning event (`epcis::commissioning`).

use std::collections::HashSet;
use std::fmt::Write as _;

use rand::RngCore;
use uuid::Uuid;

use super::{JobStatus, Serial, store};
use crate::db::{Db, sqlstate};
use crate::tenants::TenantRef;

/// Codes per batch (and per progress step).
pub const BATCH: i32 = 50_000;
/// Tries of one batch whose serials collided with stored ones (each new
/// serial has a chance of about n / 2^64 of colliding).
const COLLISION_TRIES: usize = 5;

/// Runs (or resumes) the code job `job_id` of `tenant` until it is done.
/// On `last_try`, an error marks the job failed instead of leaving it for
/// another try.
pub async fn run(db: &Db, tenant: &TenantRef, job_id: Uuid, last_try: bool) -> anyhow::Result<()> {
    match generate(db, tenant, job_id).await {
        Err(err) if last_try => {
            tracing::error!(error = ?err, job = %job_id, "code job failed for good");
            let mut tx = db.begin_tenant(tenant).await?;
            store::mark_failed(
                &mut tx,
                job_id,
                "Generation stopped after repeated errors. The codes generated so far are kept and can be downloaded; start a new job for the rest.",
            )
            .await?;
            tx.commit().await?;
            Ok(())
        }
        other => other,
    }
}

async fn generate(db: &Db, tenant: &TenantRef, job_id: Uuid) -> anyhow::Result<()> {
    {
        let mut tx = db.begin_tenant(tenant).await?;
        let Some(job) = store::lock_job(&mut tx, job_id).await? else {
            return Ok(());
        };
        if !matches!(
            JobStatus::parse(&job.status),
            Some(JobStatus::Queued | JobStatus::Running)
        ) {
            return Ok(());
        }
        store::mark_running(&mut tx, job_id).await?;
        tx.commit().await?;
    }
    loop {
        let mut tx = db.begin_tenant(tenant).await?;
        // Locked while the batch is written: one writer per job, whatever
        // happens to leases.
        let Some(job) = store::lock_job(&mut tx, job_id).await? else {
            return Ok(());
        };
        if JobStatus::parse(&job.status) != Some(JobStatus::Running)
            || job.generated >= job.quantity
        {
            return Ok(());
        }
        let count = BATCH.min(job.quantity - job.generated);
        let mut tries = 0;
        loop {
            tries += 1;
            let rows = batch_rows(job.seq, job.generated, count);
            // A savepoint, so that a collision undoes only this attempt.
            let mut attempt = sqlx::Acquire::begin(&mut *tx).await?;
            let mut copy = store::copy_codes(&mut attempt).await?;
            copy.send(rows.as_bytes()).await?;
            match copy.finish().await {
                Ok(_) => {
                    attempt.commit().await?;
                    break;
                }
                Err(err) if sqlstate(&err) == Some("23505") && tries < COLLISION_TRIES => {
                    tracing::info!(job = %job_id, "a new serial collided with a stored one; drawing the batch again");
                    attempt.rollback().await?;
                }
                Err(err) => return Err(err.into()),
            }
        }
        store::add_generated(&mut tx, job_id, count).await?;
        if job.generated + count == job.quantity {
            // The job is done: its codes are commissioned in the same
            // transaction (one EPCIS event for the whole job), and its first
            // code becomes the product's sample code if it has none yet.
            let event = crate::epcis::commissioning(&job, chrono::Utc::now());
            crate::epcis::store::insert_events(&mut tx, &[event]).await?;
            if let Some(serial) = store::first_serial(&mut tx, job.seq).await? {
                let uri = job.code_base().uri(Serial::from_db(serial));
                crate::products::store::set_sample_code(&mut tx, job.product_id, &uri).await?;
            }
        }
        tx.commit().await?;
    }
}

/// `count` code rows for positions after `done`, in COPY's text format, with
/// serials from the thread's CSPRNG (ChaCha, seeded by the operating
/// system), distinct within the batch.
fn batch_rows(job_seq: i32, done: i32, count: i32) -> String {
    let mut rng = rand::rng();
    let mut seen = HashSet::with_capacity(count as usize);
    let mut rows = String::with_capacity(count as usize * 36);
    for position in done + 1..=done + count {
        let serial = loop {
            let candidate = rng.next_u64();
            if seen.insert(candidate) {
                break candidate;
            }
        };
        // Writing to a String cannot fail.
        let _ = writeln!(rows, "{}\t{job_seq}\t{position}", serial as i64);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_rows_are_distinct_positions_in_order() {
        let rows = batch_rows(7, 100, 1000);
        let lines: Vec<_> = rows.lines().collect();
        assert_eq!(lines.len(), 1000);
        let mut serials = HashSet::new();
        for (i, line) in lines.iter().enumerate() {
            let parts: Vec<_> = line.split('\t').collect();
            assert_eq!(parts[1], "7");
            assert_eq!(parts[2], (101 + i).to_string());
            assert!(serials.insert(parts[0].parse::<i64>().unwrap()));
        }
    }
}

//! People's scans are written in batches, one writer per brand (ADR 0014).
//!
//! A scan's answer needs its code's new count and verdict, so it is written
//! before the resolver answers. Written one by one, every scan paid for a
//! statement and a commit of its own. Instead, each brand with scans coming
//! in has a writer task: a scan is handed to it and waits for its answer;
//! the writer takes every scan waiting (up to [`MAX_BATCH`]) and writes them
//! all in one statement, committed by itself, then answers each. While a
//! batch is written the next one gathers, so the batches grow with the load
//! and nothing waits for a timer.
//!
//! A batch holds each code and each consumer once: a second scan of the same
//! code (or by the same consumer) waits for the next batch, so it sees the
//! first one's count, exactly as if they had come one after another.
//!
//! A writer with nothing to do for [`IDLE`] ends. Nothing is answered before
//! it is committed; if the statement fails, every scan of the batch gets the
//! error (and none is written).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::Place;
use super::store::{self, Recorded};
use crate::http::state::SharedState;
use crate::tenants::TenantRef;

/// Scans written by one statement at most.
pub const MAX_BATCH: usize = 256;

/// A writer with no scan for this long ends (the next scan starts another).
const IDLE: Duration = Duration::from_secs(30);

/// Scans waiting for a brand's writer at most; past it, a scan waits for room.
const QUEUE: usize = 4 * MAX_BATCH;

/// A person's scan, as the writer writes it.
#[derive(Debug, Clone)]
pub struct NewScan {
    /// The code's serial as stored, when the URI's serial is one of ours.
    pub serial: Option<i64>,
    pub gtin: String,
    pub lot: Option<String>,
    /// The serial as scanned.
    pub serial_text: String,
    pub agent: &'static str,
    pub place: Place,
    pub consumer: Uuid,
    /// The consumer the verdict counts the scan as
    /// ([`super::ScanConsumer::counted_as`]).
    pub counted_as: Uuid,
}

type Answer = Result<Option<Recorded>, String>;

struct Job {
    scan: NewScan,
    reply: oneshot::Sender<Answer>,
}

/// Per brand: its writer's number and queue.
type Queues = HashMap<Uuid, (u64, mpsc::Sender<Job>)>;

/// The writers, one per brand with scans coming in (a handle: clones share
/// them; the root registers it as the resolver's `Data`).
#[derive(Default, Clone)]
pub struct ScanWriters {
    writers: Arc<Mutex<Queues>>,
    started: Arc<AtomicU64>,
}

impl ScanWriters {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queues> {
        // Each change is one map operation: a poisoned lock is still usable.
        self.writers.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes a person's scan: the code's count and verdict, the raw scan,
    /// the day's rollup and the consumer. `None` when the URI names no code
    /// of the brand (the scan is written as `not_recognised`).
    pub async fn write(
        &self,
        state: &SharedState,
        tenant: &TenantRef,
        scan: NewScan,
    ) -> anyhow::Result<Option<Recorded>> {
        let (reply, answer) = oneshot::channel();
        let mut job = Job { scan, reply };
        loop {
            let sender = {
                let mut writers = self.lock();
                match writers.get(&tenant.id) {
                    Some((_, sender)) if !sender.is_closed() => sender.clone(),
                    _ => {
                        let number = self.started.fetch_add(1, Ordering::Relaxed);
                        let (sender, receiver) = mpsc::channel(QUEUE);
                        writers.insert(tenant.id, (number, sender.clone()));
                        let writers = self.clone();
                        tokio::spawn(run(
                            writers,
                            state.clone(),
                            tenant.clone(),
                            number,
                            receiver,
                        ));
                        sender
                    }
                }
            };
            match sender.send(job).await {
                Ok(()) => break,
                // The writer ended in between: start another.
                Err(mpsc::error::SendError(back)) => job = back,
            }
        }
        match answer.await {
            Ok(Ok(recorded)) => Ok(recorded),
            Ok(Err(message)) => Err(anyhow::anyhow!(message)),
            Err(_) => Err(anyhow::anyhow!("the scan writer stopped")),
        }
    }
}

/// A brand's writer: batches until idle.
async fn run(
    writers: ScanWriters,
    state: SharedState,
    tenant: TenantRef,
    number: u64,
    mut jobs: mpsc::Receiver<Job>,
) {
    let mut deferred: VecDeque<Job> = VecDeque::new();
    loop {
        if deferred.is_empty() {
            match tokio::time::timeout(IDLE, jobs.recv()).await {
                Ok(Some(job)) => deferred.push_back(job),
                Ok(None) => return,
                Err(_) => {
                    // Idle: leave the map first, so that a scan from now on
                    // starts a new writer, then write what came in between.
                    {
                        let mut writers = writers.lock();
                        if writers.get(&tenant.id).is_some_and(|(n, _)| *n == number) {
                            writers.remove(&tenant.id);
                        }
                    }
                    jobs.close();
                    while let Some(job) = jobs.recv().await {
                        deferred.push_back(job);
                    }
                    while !deferred.is_empty() {
                        let batch = take_batch(&mut deferred, None);
                        write_batch(&state, &tenant, batch).await;
                    }
                    return;
                }
            }
        }
        let batch = take_batch(&mut deferred, Some(&mut jobs));
        write_batch(&state, &tenant, batch).await;
    }
}

/// The next batch: the deferred scans first, then those waiting in the
/// queue, each code and each consumer once (the others are deferred).
fn take_batch(deferred: &mut VecDeque<Job>, queue: Option<&mut mpsc::Receiver<Job>>) -> Vec<Job> {
    let mut batch = Vec::new();
    let mut codes = HashSet::new();
    let mut consumers = HashSet::new();
    let mut later = VecDeque::new();
    let mut admit = |job: Job, batch: &mut Vec<Job>, later: &mut VecDeque<Job>| {
        let code_free = job.scan.serial.is_none_or(|s| !codes.contains(&s));
        if code_free && !consumers.contains(&job.scan.consumer) {
            if let Some(s) = job.scan.serial {
                codes.insert(s);
            }
            consumers.insert(job.scan.consumer);
            batch.push(job);
        } else {
            later.push_back(job);
        }
    };
    while batch.len() < MAX_BATCH {
        let Some(job) = deferred.pop_front() else {
            break;
        };
        admit(job, &mut batch, &mut later);
    }
    if let Some(queue) = queue {
        while batch.len() < MAX_BATCH && later.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => admit(job, &mut batch, &mut later),
                Err(_) => break,
            }
        }
    }
    later.append(deferred);
    *deferred = later;
    batch
}

async fn write_batch(state: &SharedState, tenant: &TenantRef, batch: Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    let scans: Vec<&NewScan> = batch.iter().map(|j| &j.scan).collect();
    let written = async {
        let mut conn = state.db.autocommit_tenant(tenant).await?;
        let rows = store::write_scans(&mut conn, &scans).await?;
        conn.finish().await?;
        Ok::<_, sqlx::Error>(rows)
    }
    .await;
    match written {
        Ok(mut rows) => {
            for (i, job) in batch.into_iter().enumerate() {
                let _ = job.reply.send(Ok(rows[i].take()));
            }
        }
        Err(err) => {
            tracing::error!(error = ?err, scans = batch.len(), "writing scans failed");
            for job in batch {
                let _ = job
                    .reply
                    .send(Err(format!("writing the scan failed: {err}")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(serial: Option<i64>, consumer: u128) -> (Job, oneshot::Receiver<Answer>) {
        let (reply, answer) = oneshot::channel();
        let scan = NewScan {
            serial,
            gtin: "09506000134352".into(),
            lot: None,
            serial_text: "X".into(),
            agent: "mobile",
            place: Place::unknown(),
            consumer: Uuid::from_u128(consumer),
            counted_as: Uuid::from_u128(consumer),
        };
        (Job { scan, reply }, answer)
    }

    fn serials(batch: &[Job]) -> Vec<(Option<i64>, u128)> {
        batch
            .iter()
            .map(|j| (j.scan.serial, j.scan.consumer.as_u128()))
            .collect()
    }

    #[tokio::test]
    async fn a_batch_holds_each_code_and_each_consumer_once_and_keeps_the_order() {
        let (sender, mut queue) = mpsc::channel(QUEUE);
        let mut answers = Vec::new();
        for (serial, consumer) in [
            (Some(1), 1),
            (Some(1), 2), // the same code: next batch
            (Some(2), 1), // the same consumer: next batch
            (None, 3),
            (None, 4),
            (Some(3), 5),
        ] {
            let (j, a) = job(serial, consumer);
            answers.push(a);
            sender.send(j).await.unwrap();
        }
        let mut deferred = VecDeque::new();
        let first = take_batch(&mut deferred, Some(&mut queue));
        assert_eq!(
            serials(&first),
            [(Some(1), 1), (None, 3), (None, 4), (Some(3), 5)]
        );
        let second = take_batch(&mut deferred, Some(&mut queue));
        assert_eq!(serials(&second), [(Some(1), 2), (Some(2), 1)]);
        assert!(take_batch(&mut deferred, Some(&mut queue)).is_empty());
    }

    #[tokio::test]
    async fn a_batch_is_at_most_max_batch() {
        let (sender, mut queue) = mpsc::channel(QUEUE);
        let mut answers = Vec::new();
        for i in 0..(MAX_BATCH + 10) {
            let (j, a) = job(Some(i as i64), i as u128);
            answers.push(a);
            sender.send(j).await.unwrap();
        }
        let mut deferred = VecDeque::new();
        assert_eq!(take_batch(&mut deferred, Some(&mut queue)).len(), MAX_BATCH);
        assert_eq!(take_batch(&mut deferred, Some(&mut queue)).len(), 10);
    }
}

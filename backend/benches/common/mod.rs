//! What the benchmarks share: the machine's description, a median, a
//! signed-in client, and writing one section of docs/benchmarks.md (each
//! benchmark owns a section between markers and leaves the others as they
//! are).

#![allow(dead_code)]

use serde_json::json;

pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .next()
                .map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or_else(
            || "?".into(),
            |kb| format!("{:.0} GiB", kb as f64 / 1048576.0),
        );
    let pg = std::process::Command::new("postgres")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores, {mem} RAM; {pg}")
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

pub async fn login(base: &str, email: &str) -> reqwest::Client {
    let c = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let r = c
        .post(format!("{base}/api/auth/login"))
        .json(&json!({"email": email, "password": "brandops-demo"}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    c
}

const TITLE: &str = "# Benchmarks\n\n\
    Written by `make bench` (`backend/benches/*.rs`, one section each); numbers are from one run \
    on one machine, so compare ratios, not absolute rates, across machines.\n";

/// Replaces the section `name` of `path` (between `<!-- name -->` and
/// `<!-- /name -->`), or adds it at the end.
pub fn write_section(path: &std::path::Path, name: &str, body: &str) {
    let (open, close) = (format!("<!-- {name} -->"), format!("<!-- /{name} -->"));
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let current = if current.starts_with("# Benchmarks") && current.contains("<!-- ") {
        current
    } else {
        TITLE.to_string()
    };
    let section = format!("{open}\n{}\n{close}", body.trim_end());
    let next = match (current.find(&open), current.find(&close)) {
        (Some(a), Some(b)) if a < b => {
            format!("{}{section}{}", &current[..a], &current[b + close.len()..])
        }
        _ => format!("{}\n{section}\n", current.trim_end()),
    };
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, next).unwrap();
}

/// The process's resident memory in bytes (Linux).
pub fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

//! Typed configuration, read once from the environment at start-up.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};

/// A value that must never reach a log line.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

#[derive(Clone, Debug)]
pub struct Settings {
    /// Owner connection: migrations and tenant provisioning (CREATE SCHEMA/ROLE).
    pub database_url: Secret,
    pub host: String,
    pub port: u16,
    /// The URL people use to reach the app (`PUBLIC_URL`); decides the
    /// cookie's Secure flag and the one Origin unsafe requests may come from.
    /// When not set, `Application::build` makes it http://HOST:<bound port>.
    pub public_url: Option<String>,
    /// Key material for poem's private (encrypted, authenticated) cookies.
    pub cookie_secret: Option<Secret>,
    /// The secret the database login roles' passwords are derived from
    /// (`DB_ROLE_SECRET`, at least 32 characters; ADR 0010).
    pub db_role_secret: Secret,
    /// Where tenant connections go when not straight to `DATABASE_URL`'s
    /// server: a transaction pooler such as PgBouncer. Its user and password
    /// are not used (each tenant logs in as its own role).
    pub tenant_database_url: Option<Secret>,
    pub frontend_dir: PathBuf,
    pub tenants_dir: PathBuf,
    /// Where files (product images, label outputs) are kept when no bucket
    /// is configured (`DATA_DIR`, default `data`).
    pub data_dir: PathBuf,
    /// An S3-compatible bucket for files instead (`S3_BUCKET`; the `AWS_*`
    /// variables give its endpoint and credentials).
    pub s3_bucket: Option<String>,
    /// The cap on the server's PostgreSQL connections, all pools together.
    pub db_max_connections: u32,
    /// Connections per tenant pool.
    pub db_tenant_pool_size: u32,
    pub session_idle_timeout: Duration,
    pub session_absolute_timeout: Duration,
    /// Trust X-Forwarded-For for the client address (only behind a proxy you run).
    pub trust_proxy: bool,
    /// Concurrent argon2 computations; each takes ~19 MiB and one core.
    pub password_hash_concurrency: usize,
    pub log_json: bool,
    /// An offline IP database in MMDB format (GeoIP2/GeoLite2 City layout)
    /// that places scans (`GEOIP_MMDB`); none: scans have no place from
    /// their address.
    pub geoip_mmdb: Option<PathBuf>,
    /// Links one address may open on the public resolver per minute
    /// (`SCAN_RATE_PER_MINUTE`); a genuine code's first scan is never refused.
    pub scan_rate_per_minute: u32,
    /// Places one address may share per minute from the scan page
    /// (`POST /r/locate`, `LOCATE_RATE_PER_MINUTE`): a person shares theirs
    /// once per scan. Its own limit: sharing never uses up scans or reviews.
    pub locate_rate_per_minute: u32,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn env_parse<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T>
where
    T::Err: std::fmt::Display,
{
    match env(name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|e| anyhow::anyhow!("{name}={v:?} is not valid: {e}")),
    }
}

impl Settings {
    pub fn from_env() -> anyhow::Result<Self> {
        let database_url = env("DATABASE_URL")
            .context("DATABASE_URL is not set (e.g. postgres://user@127.0.0.1:5432/brandops)")?;
        let host = env("HOST").unwrap_or_else(|| "127.0.0.1".into());
        let port: u16 = env_parse("PORT", 8080)?;
        let public_url = env("PUBLIC_URL").map(|u| u.trim_end_matches('/').to_string());
        if let Some(url) = &public_url
            && origin_of(url).is_none()
        {
            bail!("PUBLIC_URL must be an http:// or https:// URL such as https://brandops.example");
        }
        let db_role_secret = env("DB_ROLE_SECRET").context(
            "DB_ROLE_SECRET is not set: give at least 32 random characters (e.g. `openssl rand -hex 32`); the database login roles' passwords are derived from it",
        )?;
        if db_role_secret.len() < 32 {
            bail!("DB_ROLE_SECRET must be at least 32 characters");
        }
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Ok(Self {
            database_url: Secret::new(database_url),
            host,
            port,
            public_url,
            cookie_secret: env("COOKIE_SECRET").map(Secret::new),
            db_role_secret: Secret::new(db_role_secret),
            tenant_database_url: env("TENANT_DATABASE_URL").map(Secret::new),
            frontend_dir: env("FRONTEND_DIR")
                .unwrap_or_else(|| "frontend/dist".into())
                .into(),
            tenants_dir: env("TENANTS_DIR")
                .unwrap_or_else(|| "tenants".into())
                .into(),
            data_dir: env("DATA_DIR").unwrap_or_else(|| "data".into()).into(),
            s3_bucket: env("S3_BUCKET"),
            db_max_connections: env_parse("DB_MAX_CONNECTIONS", 20)?,
            db_tenant_pool_size: env_parse("DB_TENANT_POOL_SIZE", 2)?,
            session_idle_timeout: Duration::from_secs(
                env_parse("SESSION_IDLE_MINUTES", 720u64)? * 60,
            ),
            session_absolute_timeout: Duration::from_secs(
                env_parse("SESSION_MAX_HOURS", 168u64)? * 3600,
            ),
            trust_proxy: env_parse("TRUST_PROXY", false)?,
            password_hash_concurrency: env_parse("PASSWORD_HASH_CONCURRENCY", cpus.max(1))?,
            log_json: env("LOG_FORMAT").is_none_or(|f| f != "pretty"),
            geoip_mmdb: env("GEOIP_MMDB").map(PathBuf::from),
            scan_rate_per_minute: env_parse("SCAN_RATE_PER_MINUTE", 60)?,
            locate_rate_per_minute: env_parse("LOCATE_RATE_PER_MINUTE", 10)?,
        })
    }

    /// Settings for tests and benchmarks: everything explicit, port 0.
    pub fn for_tests(database_url: &str, repo_root: &std::path::Path) -> Self {
        Self {
            database_url: Secret::new(database_url),
            host: "127.0.0.1".into(),
            port: 0,
            public_url: None,
            cookie_secret: None,
            db_role_secret: Secret::new("brandops test secret for database login roles"),
            tenant_database_url: None,
            frontend_dir: repo_root.join("frontend/dist"),
            tenants_dir: repo_root.join("tenants"),
            data_dir: std::env::temp_dir().join(format!("brandops-test-{}", uuid::Uuid::new_v4())),
            s3_bucket: None,
            db_max_connections: 16,
            db_tenant_pool_size: 2,
            session_idle_timeout: Duration::from_secs(3600),
            session_absolute_timeout: Duration::from_secs(86400),
            trust_proxy: true,
            password_hash_concurrency: 2,
            log_json: false,
            geoip_mmdb: None,
            scan_rate_per_minute: 60,
            locate_rate_per_minute: 10,
        }
    }

    /// The public URL (set by the time the server runs).
    pub fn public_url(&self) -> &str {
        self.public_url.as_deref().unwrap_or_default()
    }

    pub fn secure_cookies(&self) -> bool {
        self.public_url().starts_with("https://")
    }
}

/// An origin: lower-cased scheme and host, and the port.
pub type Origin = (String, String, u16);

/// The origin of an http(s) URL (the port 80 or 443 when none is written).
/// None for anything else.
pub fn origin_of(url: &str) -> Option<Origin> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    // `[::1]:8080`, `host:8080`, `host`
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, Some(port.parse().ok()?)),
        _ => (authority, None),
    };
    if host.is_empty() {
        return None;
    }
    Some((
        scheme,
        host.to_ascii_lowercase(),
        port.unwrap_or(default_port),
    ))
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn origins() {
        let o = |s: &str, h: &str, p: u16| Some((s.to_string(), h.to_string(), p));
        assert_eq!(
            origin_of("http://127.0.0.1:8080"),
            o("http", "127.0.0.1", 8080)
        );
        assert_eq!(
            origin_of("HTTPS://App.Example/"),
            o("https", "app.example", 443)
        );
        assert_eq!(
            origin_of("http://app.example/x?y"),
            o("http", "app.example", 80)
        );
        assert_eq!(origin_of("http://[::1]:3000"), o("http", "[::1]", 3000));
        assert_eq!(origin_of("http://[::1]"), o("http", "[::1]", 80));
        for bad in [
            "null",
            "",
            "ftp://x",
            "http://",
            "http://:80",
            "http://a:b",
            "http://u@h",
        ] {
            assert_eq!(origin_of(bad), None, "{bad}");
        }
    }
}

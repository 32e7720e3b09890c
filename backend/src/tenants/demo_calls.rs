//! The demo tenants' supply chain (issue 23): the `[[demo_calls]]` of a
//! tenant file (its GS1 company prefix, suppliers, customers, purchase
//! orders and receipts, bills of materials, manufacturing orders,
//! shipments) sent to the API itself, in process, signed in as the
//! tenant's first admin. Every rule, audit row and event is the one a user
//! of the app gets: nothing is written beside the API.
//!
//! A tenant's calls are sent once: when a `GET` of the path of its first
//! `POST` lists nothing (a tenant that already has its demo suppliers, or
//! suppliers of its own, is left as it is). A call the API refuses stops
//! the seeding with its answer.

use std::collections::HashMap;

use anyhow::{Context, anyhow, bail};
use chrono::{Days, NaiveDate};
use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, Request};
use serde_json::Value;

use super::definition::{DemoCall, TenantFile};

/// A signed-in admin of one tenant, calling `ep`.
struct Caller<'a, E> {
    ep: &'a E,
    origin: &'a str,
    cookie: String,
    csrf: String,
}

/// Sends `body` to `path`; answers the status and the JSON answer (Null
/// when there is none).
async fn send<E: Endpoint>(
    ep: &E,
    origin: &str,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    csrf: Option<&str>,
    body: Option<&Value>,
) -> anyhow::Result<(StatusCode, Value, Vec<String>)> {
    let mut req = Request::builder()
        .method(method)
        .uri(path.parse().with_context(|| format!("path {path}"))?)
        .header(header::ORIGIN, origin);
    if let Some(cookie) = cookie {
        req = req.header(header::COOKIE, cookie);
    }
    if let Some(csrf) = csrf {
        req = req.header("x-csrf-token", csrf);
    }
    let req = match body {
        Some(body) => req
            .content_type("application/json")
            .body(serde_json::to_vec(body)?),
        None => req.finish(),
    };
    let resp = ep.get_response(req).await;
    let status = resp.status();
    let cookies = resp
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::to_string)
        .collect();
    let text = resp.into_body().into_string().await?;
    let json = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    Ok((status, json, cookies))
}

impl<E: Endpoint> Caller<'_, E> {
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<(StatusCode, Value)> {
        let (status, json, _) = send(
            self.ep,
            self.origin,
            method,
            path,
            Some(&self.cookie),
            Some(&self.csrf),
            body,
        )
        .await?;
        Ok((status, json))
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let (status, json) = self.call(Method::GET, path, None).await?;
        if !status.is_success() {
            bail!("GET {path}: {status} {json}");
        }
        Ok(json)
    }
}

/// Sends the demo calls of every tenant that has some and has not had
/// them; answers how many tenants it seeded. `origin` is the app's public
/// origin (`http://host:port`), which writes must come from.
pub async fn seed_demo_calls<E: Endpoint>(
    ep: &E,
    origin: &str,
    tenants: &[TenantFile],
    password: &str,
    today: NaiveDate,
) -> anyhow::Result<usize> {
    let mut seeded = 0;
    for t in tenants.iter().filter(|t| !t.demo_calls.is_empty()) {
        let admin = t
            .accounts
            .iter()
            .find(|a| a.role.as_deref() == Some("admin"))
            .with_context(|| format!("tenant {}: no admin to call the API as", t.client_id))?;
        let login = serde_json::json!({"email": admin.email, "password": password});
        let (status, session, cookies) = send(
            ep,
            origin,
            Method::POST,
            "/api/auth/login",
            None,
            None,
            Some(&login),
        )
        .await?;
        if status != StatusCode::OK {
            bail!(
                "tenant {}: sign-in as {}: {status} {session}",
                t.client_id,
                admin.email
            );
        }
        let caller = Caller {
            ep,
            origin,
            cookie: cookies.join("; "),
            csrf: session["csrfToken"]
                .as_str()
                .context("the sign-in answers a CSRF token")?
                .to_string(),
        };
        if already_seeded(&caller, &t.demo_calls).await? {
            continue;
        }
        let mut run = Run {
            caller: &caller,
            today,
            saved: HashMap::new(),
            products: None,
            locations: None,
        };
        for (i, call) in t.demo_calls.iter().enumerate() {
            run.send(call).await.with_context(|| {
                format!(
                    "tenant {}: demo call {} ({})",
                    t.client_id,
                    i + 1,
                    call.path
                )
            })?;
        }
        seeded += 1;
    }
    Ok(seeded)
}

/// Whether a `GET` of the first `POST`'s path lists something already.
async fn already_seeded<E: Endpoint>(
    caller: &Caller<'_, E>,
    calls: &[DemoCall],
) -> anyhow::Result<bool> {
    let Some(first) = calls
        .iter()
        .find(|c| method_of(c).is_ok_and(|m| m == Method::POST))
    else {
        return Ok(false);
    };
    let listed = caller.get(&first.path).await?;
    Ok(match &listed {
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => fields
            .values()
            .any(|v| v.as_array().is_some_and(|a| !a.is_empty())),
        _ => false,
    })
}

fn method_of(call: &DemoCall) -> anyhow::Result<Method> {
    match call.method.as_deref().unwrap_or("POST") {
        "POST" => Ok(Method::POST),
        "PUT" => Ok(Method::PUT),
        "PATCH" => Ok(Method::PATCH),
        "DELETE" => Ok(Method::DELETE),
        other => bail!("method {other}: POST, PUT, PATCH or DELETE"),
    }
}

/// One tenant's calls: the answers saved so far, and the products and
/// locations (read once, when a call first names one).
struct Run<'a, E> {
    caller: &'a Caller<'a, E>,
    today: NaiveDate,
    saved: HashMap<String, Value>,
    products: Option<Value>,
    locations: Option<Value>,
}

impl<E: Endpoint> Run<'_, E> {
    async fn send(&mut self, call: &DemoCall) -> anyhow::Result<()> {
        let method = method_of(call)?;
        let path = self.fill_text(&call.path).await?;
        let body = match &call.body {
            Some(body) => Some(self.fill(serde_json::to_value(body)?).await?),
            None => None,
        };
        let (status, answer) = self.caller.call(method, &path, body.as_ref()).await?;
        if !status.is_success() {
            bail!("{path}: {status} {answer}");
        }
        if let Some(name) = &call.name {
            self.saved.insert(name.clone(), answer);
        }
        Ok(())
    }

    /// `value` with every `${…}` of its strings replaced.
    async fn fill(&mut self, value: Value) -> anyhow::Result<Value> {
        Ok(match value {
            Value::String(s) => Value::String(self.fill_text(&s).await?),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(Box::pin(self.fill(item)).await?);
                }
                Value::Array(out)
            }
            Value::Object(fields) => {
                let mut out = serde_json::Map::with_capacity(fields.len());
                for (k, v) in fields {
                    out.insert(k, Box::pin(self.fill(v)).await?);
                }
                Value::Object(out)
            }
            other => other,
        })
    }

    async fn fill_text(&mut self, text: &str) -> anyhow::Result<String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let end = rest[start..]
                .find('}')
                .with_context(|| format!("an unclosed ${{ in {text:?}"))?;
            out.push_str(&self.resolve(&rest[start + 2..start + end]).await?);
            rest = &rest[start + end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    async fn resolve(&mut self, name: &str) -> anyhow::Result<String> {
        if let Some(days) = name.strip_prefix("today") {
            return Ok(shifted(self.today, days)?.format("%Y-%m-%d").to_string());
        }
        if let Some(sku) = name.strip_prefix("sku:") {
            if self.products.is_none() {
                self.products = Some(
                    self.caller
                        .get("/api/product-handler?action=allproducts")
                        .await?,
                );
            }
            let listed = self.products.as_ref().expect("read just now");
            return find_id(listed, "skuid", sku).with_context(|| format!("no product {sku}"));
        }
        if let Some(code) = name.strip_prefix("location:") {
            if self.locations.is_none() {
                self.locations = Some(self.caller.get("/api/locations").await?);
            }
            let listed = self.locations.as_ref().expect("read just now");
            return find_id(listed, "code", code).with_context(|| format!("no location {code}"));
        }
        let mut parts = name.split('.');
        let first = parts.next().unwrap_or_default();
        let mut at = self
            .saved
            .get(first)
            .with_context(|| format!("no call named {first} before"))?;
        for part in parts {
            at = match part.parse::<usize>() {
                Ok(i) => at.get(i),
                Err(_) => at.get(part),
            }
            .with_context(|| format!("{name}: the answer has no {part}"))?;
        }
        Ok(match at {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }
}

/// `today` moved by `+N` or `-N` days (nothing: today).
fn shifted(today: NaiveDate, days: &str) -> anyhow::Result<NaiveDate> {
    if days.is_empty() {
        return Ok(today);
    }
    let n: u64 = days[1..]
        .parse()
        .with_context(|| format!("today{days}: today+N or today-N"))?;
    match &days[..1] {
        "+" => today.checked_add_days(Days::new(n)),
        "-" => today.checked_sub_days(Days::new(n)),
        _ => None,
    }
    .ok_or_else(|| anyhow!("today{days}: today+N or today-N"))
}

/// The `id` of the first object in `listed` whose `key` is `value`.
fn find_id(listed: &Value, key: &str, value: &str) -> Option<String> {
    match listed {
        Value::Object(fields) => {
            if fields.get(key).and_then(Value::as_str) == Some(value) {
                return fields.get("id").and_then(Value::as_str).map(str::to_string);
            }
            fields.values().find_map(|v| find_id(v, key, value))
        }
        Value::Array(items) => items.iter().find_map(|v| find_id(v, key, value)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_from_today_and_ids_by_key() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        assert_eq!(shifted(today, "").unwrap(), today);
        assert_eq!(shifted(today, "+5").unwrap().to_string(), "2026-12-02");
        assert_eq!(shifted(today, "-27").unwrap().to_string(), "2026-10-31");
        assert!(shifted(today, "*2").is_err());
        assert!(shifted(today, "+x").is_err());
        let listed = serde_json::json!({"products": [
            {"id": "a", "skuid": "TEA"}, {"id": "b", "skuid": "COF"}
        ]});
        assert_eq!(find_id(&listed, "skuid", "COF").as_deref(), Some("b"));
        assert_eq!(find_id(&listed, "skuid", "HON"), None);
    }
}

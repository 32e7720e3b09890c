//! The one access policy: a Casbin enforcer loaded from `tenants/access/`.
//!
//! It answers two questions with the same rules: may this role open this page
//! route (`act = "view"`), and may it call this API operation (`act` = the
//! HTTP method, `obj` = the request path). The session endpoint's
//! `allowedPaths` is read from the same policy, so the frontend never holds a
//! copy of the role table.

use std::collections::HashMap;
use std::path::Path;
use std::sync::RwLock;

use anyhow::Context;
use casbin::function_map::OperatorFunction;
use casbin::prelude::*;
use casbin::rhai::Dynamic;

/// The role of a request that carries no session.
pub const ANONYMOUS: &str = "anonymous";

pub struct Access {
    enforcer: Enforcer,
    /// Decisions already made. The policy does not change while the server
    /// runs, and casbin evaluates its matcher (a rhai script) against every
    /// policy row, so each (role, domain, path, action) is worked out once.
    decisions: RwLock<HashMap<DecisionKey, bool>>,
}

type DecisionKey = (String, String, String, String);

/// Paths carry ids, so the cache is bounded: past this many entries it starts
/// over.
const MAX_CACHED_DECISIONS: usize = 50_000;

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Access")
    }
}

/// Lower-cases and drops trailing slashes; `""` becomes `"/"`.
fn normalize(path: &str) -> String {
    let lower = path.to_lowercase();
    let trimmed = lower.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else {
        trimmed.to_string()
    }
}

/// True when `request` equals `policy` or lies below it on a `/` boundary,
/// compared case-insensitively and ignoring a trailing slash. The policy path
/// `/` matches only `/`. Paths with `.` or `..` segments never match.
pub fn path_under(request: &str, policy: &str) -> bool {
    if !request.starts_with('/') || request.split('/').any(|seg| seg == "." || seg == "..") {
        return false;
    }
    let (r, p) = (normalize(request), normalize(policy));
    if p == "/" {
        return r == "/";
    }
    r == p || (r.starts_with(&p) && r.as_bytes()[p.len()] == b'/')
}

/// Policy domain `*` matches every domain, `brand:*` every brand,
/// `client:clientA` exactly that client.
pub fn domain_match(request: &str, policy: &str) -> bool {
    match policy.strip_suffix('*') {
        Some(prefix) => request.starts_with(prefix),
        None => request == policy,
    }
}

fn dyn_str(d: Dynamic) -> String {
    d.into_immutable_string()
        .map(|s| s.to_string())
        .unwrap_or_default()
}

impl Access {
    /// Loads `model.conf` and `policy.csv` from `dir` (normally `tenants/access`).
    pub async fn load(dir: &Path) -> anyhow::Result<Self> {
        let model_text = std::fs::read_to_string(dir.join("model.conf"))
            .with_context(|| format!("cannot read {}/model.conf", dir.display()))?;
        let policy_text = std::fs::read_to_string(dir.join("policy.csv"))
            .with_context(|| format!("cannot read {}/policy.csv", dir.display()))?;
        Self::from_texts(&model_text, &policy_text).await
    }

    pub async fn from_texts(model: &str, policy: &str) -> anyhow::Result<Self> {
        let model = DefaultModel::from_str(model).await?;
        let adapter = StringAdapter::new(policy);
        let mut enforcer = Enforcer::new(model, adapter).await?;
        enforcer.add_function(
            "pathUnder",
            OperatorFunction::Arg2(|r, p| path_under(&dyn_str(r), &dyn_str(p)).into()),
        );
        enforcer.add_function(
            "domainMatch",
            OperatorFunction::Arg2(|r, p| domain_match(&dyn_str(r), &dyn_str(p)).into()),
        );
        Ok(Self {
            enforcer,
            decisions: RwLock::new(HashMap::new()),
        })
    }

    /// May `role` in `domain` perform `act` on `obj`? Errors count as "no".
    pub fn allows(&self, role: &str, domain: &str, obj: &str, act: &str) -> bool {
        let key = (
            role.to_string(),
            domain.to_string(),
            obj.to_string(),
            act.to_string(),
        );
        if let Some(known) = self
            .decisions
            .read()
            .ok()
            .and_then(|d| d.get(&key).copied())
        {
            return known;
        }
        let decision = self.evaluate(role, domain, obj, act);
        if let Ok(mut cache) = self.decisions.write() {
            if cache.len() >= MAX_CACHED_DECISIONS {
                cache.clear();
            }
            cache.insert(key, decision);
        }
        decision
    }

    fn evaluate(&self, role: &str, domain: &str, obj: &str, act: &str) -> bool {
        match self.enforcer.enforce((role, domain, obj, act)) {
            Ok(allowed) => allowed,
            Err(err) => {
                tracing::error!(error = %err, role, domain, obj, act, "policy evaluation failed");
                false
            }
        }
    }

    /// The page routes `role` in `domain` may open, as listed in the policy
    /// (prefixes: a path is allowed when it lies under one of them).
    pub fn allowed_paths(&self, role: &str, domain: &str) -> Vec<String> {
        let mut roles = vec![role.to_string()];
        roles.extend(self.enforcer.get_implicit_roles_for_user(role, None));
        let mut paths: Vec<String> = self
            .enforcer
            .get_policy()
            .into_iter()
            .filter(|rule| {
                rule.len() == 4
                    && rule[3] == "view"
                    && roles.contains(&rule[0])
                    && domain_match(domain, &rule[1])
            })
            .map(|rule| rule[2].clone())
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_under_edge_cases() {
        // equal, case-insensitive, trailing slash on either side
        assert!(path_under("/products", "/products"));
        assert!(path_under("/PRODUCTS", "/products"));
        assert!(path_under("/products/", "/products"));
        assert!(path_under("/products", "/products/"));
        assert!(path_under("/Settings", "/settings"));
        // nested, on a "/" boundary only
        assert!(path_under("/products/12", "/products"));
        assert!(path_under("/products/Edit_product/abc/", "/products"));
        assert!(!path_under("/productsX", "/products"));
        assert!(!path_under("/products-old", "/products"));
        assert!(!path_under("/product", "/products"));
        // "/" matches only itself
        assert!(path_under("/", "/"));
        assert!(path_under("//", "/"));
        assert!(!path_under("/products", "/"));
        assert!(!path_under("/anything/below", "/"));
        // a deeper policy does not allow its parent
        assert!(path_under("/products/add_product", "/products/Add_product"));
        assert!(!path_under("/products", "/products/Add_product"));
        // no tricks with dot segments or relative paths
        assert!(!path_under("/products/../manage_org", "/products"));
        assert!(!path_under("/products/./x", "/products"));
        assert!(!path_under("products", "/products"));
        // client areas do not bleed into each other by prefix
        assert!(!path_under("/clientAB/dashboard", "/clientA"));
        assert!(path_under("/clienta/dashboard", "/clientA"));
    }

    #[test]
    fn domain_patterns() {
        assert!(domain_match("brand:acme", "*"));
        assert!(domain_match("brand:acme", "brand:*"));
        assert!(!domain_match("client:clientA", "brand:*"));
        assert!(domain_match("client:clientA", "client:clientA"));
        assert!(!domain_match("client:clientAB", "client:clientA"));
        assert!(!domain_match("client:clientB", "client:clientA"));
    }

    async fn policy() -> Access {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tenants/access");
        Access::load(&dir).await.unwrap()
    }

    #[tokio::test]
    async fn spec_table_is_encoded_verbatim() {
        let a = policy().await;
        let brand = "brand:acme";
        let spec: [(&str, &[&str]); 3] = [
            (
                "admin",
                &[
                    "/",
                    "/ui/table",
                    "/products",
                    "/printer",
                    "/pharmagen/batchupdate",
                    "/profile",
                    "/settings",
                ],
            ),
            (
                "manager",
                &[
                    "/",
                    "/ui/table",
                    "/products",
                    "/pharmagen/batchupdate",
                    "/profile",
                    "/settings",
                ],
            ),
            (
                "worker",
                &[
                    "/",
                    "/ui/table",
                    "/products",
                    "/profile",
                    "/products/Add_product",
                ],
            ),
        ];
        for (role, paths) in spec {
            for p in paths {
                assert!(a.allows(role, brand, p, "view"), "{role} {p}");
            }
        }
        assert!(!a.allows("manager", brand, "/printer", "view"));
        assert!(!a.allows("worker", brand, "/settings", "view"));
        assert!(!a.allows("worker", brand, "/pharmagen/batchupdate", "view"));
        assert!(a.allows("worker", brand, "/products/Add_product/", "view"));
        assert!(a.allows("worker", brand, "/products/42", "view"));
    }

    #[tokio::test]
    async fn manage_org_is_admin_only_and_client_areas_are_scoped() {
        let a = policy().await;
        assert!(a.allows("admin", "brand:acme", "/manage_org", "view"));
        assert!(!a.allows("manager", "brand:acme", "/manage_org", "view"));
        assert!(!a.allows("worker", "brand:acme", "/manage_org", "view"));
        assert!(a.allows("employee", "client:clientA", "/clientA/dashboard", "view"));
        assert!(a.allows("admin", "client:clientA", "/clienta/reports", "view"));
        assert!(!a.allows("employee", "client:clientA", "/clientB/dashboard", "view"));
        assert!(!a.allows("admin", "brand:acme", "/clientA/dashboard", "view"));
        assert!(!a.allows("platform_admin", "platform", "/clientA/dashboard", "view"));
        assert!(!a.allows(ANONYMOUS, "*", "/", "view"));
    }

    #[tokio::test]
    async fn cached_decisions_match_fresh_evaluation() {
        let a = policy().await;
        for role in [
            "admin",
            "manager",
            "worker",
            "employee",
            "platform_admin",
            ANONYMOUS,
        ] {
            for path in [
                "/",
                "/printer",
                "/manage_org",
                "/clientA/x",
                "/api/client-auth",
                "/api/health",
            ] {
                for act in ["view", "GET", "POST"] {
                    let first = a.allows(role, "brand:acme", path, act);
                    assert_eq!(first, a.evaluate(role, "brand:acme", path, act));
                    assert_eq!(first, a.allows(role, "brand:acme", path, act));
                }
            }
        }
    }

    #[tokio::test]
    async fn allowed_paths_come_from_the_policy() {
        let a = policy().await;
        let worker = a.allowed_paths("worker", "brand:acme");
        assert!(worker.contains(&"/products/Add_product".to_string()));
        assert!(worker.contains(&"/TermsAndConditions".to_string()));
        assert!(!worker.contains(&"/manage_org".to_string()));
        let employee_a = a.allowed_paths("employee", "client:clientA");
        assert!(employee_a.contains(&"/clientA".to_string()));
        assert!(!employee_a.contains(&"/clientB".to_string()));
        // API rows are not page routes
        assert!(
            a.allowed_paths("admin", "brand:acme")
                .iter()
                .all(|p| !p.starts_with("/api"))
        );
    }
}

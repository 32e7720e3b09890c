//! The one access policy: a Casbin enforcer loaded from `tenants/access/`.
//!
//! It answers two questions with the same rules: may this role open this page
//! route (`act = "view"`, `obj` = the path, matched with [`path_under`]), and
//! may it call this API operation (`act = "call"`, `obj` = the operation's
//! `operation_id`, matched exactly). Keying API rules by operation means a
//! rule never covers another operation below the same URL. The session
//! endpoint's `allowedPaths` is read from the same policy, so the frontend
//! never holds a copy of the role table.

use std::collections::HashMap;
use std::path::Path;
use std::sync::RwLock;

use anyhow::Context;
use casbin::function_map::OperatorFunction;
use casbin::prelude::*;
use casbin::rhai::Dynamic;

use crate::http::operations::OperationId;

/// The role of a request that carries no session.
pub const ANONYMOUS: &str = "anonymous";
/// The action of API rules; their object is an `operation_id`.
pub const CALL: &str = "call";
/// The action of page-route rules; their object is a path.
pub const VIEW: &str = "view";

pub struct Access {
    enforcer: Enforcer,
    /// Operation decisions already made. The policy does not change while
    /// the server runs, and casbin evaluates its matcher (a rhai script)
    /// against every policy row, so each (role, domain, operation) is worked
    /// out once. Nothing from the request's path is a key: operations are a
    /// fixed set, roles too, and domains are one per tenant.
    decisions: RwLock<HashMap<DecisionKey, bool>>,
}

type DecisionKey = (String, String, OperationId);

/// Domains grow with tenants, so the cache is bounded all the same: past this
/// many entries it starts over.
const MAX_CACHED_DECISIONS: usize = 100_000;

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

/// A policy object that starts with `/` is a page path ([`path_under`]);
/// any other is an `operation_id`, matched exactly.
pub fn object_match(request: &str, policy: &str) -> bool {
    if policy.starts_with('/') {
        path_under(request, policy)
    } else {
        request == policy
    }
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
    /// Loads `model.conf` and `policy.csv` from `dir` (normally
    /// `tenants/access`) and checks the API rules against `operations`, the
    /// `operation_id`s the service has: a rule naming no operation, or an
    /// operation without any rule, is a mistake caught at start-up.
    pub async fn load(dir: &Path, operations: &[&str]) -> anyhow::Result<Self> {
        let model_text = std::fs::read_to_string(dir.join("model.conf"))
            .with_context(|| format!("cannot read {}/model.conf", dir.display()))?;
        let policy_text = std::fs::read_to_string(dir.join("policy.csv"))
            .with_context(|| format!("cannot read {}/policy.csv", dir.display()))?;
        let access = Self::from_texts(&model_text, &policy_text).await?;
        access.check_operations(operations)?;
        Ok(access)
    }

    pub async fn from_texts(model: &str, policy: &str) -> anyhow::Result<Self> {
        let model = DefaultModel::from_str(model).await?;
        let adapter = StringAdapter::new(policy);
        let mut enforcer = Enforcer::new(model, adapter).await?;
        enforcer.add_function(
            "objectMatch",
            OperatorFunction::Arg2(|r, p| object_match(&dyn_str(r), &dyn_str(p)).into()),
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

    fn check_operations(&self, operations: &[&str]) -> anyhow::Result<()> {
        let rules = self.enforcer.get_policy();
        let api_rules: Vec<&Vec<String>> = rules
            .iter()
            .filter(|rule| rule.get(3).map(String::as_str) == Some(CALL))
            .collect();
        for rule in &api_rules {
            anyhow::ensure!(
                operations.contains(&rule[2].as_str()),
                "policy rule {rule:?} names no operation of the API (operation_ids are case-sensitive)"
            );
        }
        for op in operations {
            anyhow::ensure!(
                api_rules.iter().any(|rule| rule[2] == *op),
                "operation {op} has no rule in the access policy: add its 'call' rows to policy.csv"
            );
        }
        Ok(())
    }

    /// May `role` in `domain` call the operation `op`? Errors count as "no".
    pub fn allows_operation(&self, role: &str, domain: &str, op: OperationId) -> bool {
        let key = (role.to_string(), domain.to_string(), op);
        if let Some(known) = self
            .decisions
            .read()
            .ok()
            .and_then(|d| d.get(&key).copied())
        {
            return known;
        }
        let decision = self.evaluate(role, domain, op.0, CALL);
        if let Ok(mut cache) = self.decisions.write() {
            if cache.len() >= MAX_CACHED_DECISIONS {
                cache.clear();
            }
            cache.insert(key, decision);
        }
        decision
    }

    /// How many operation decisions are cached (for tests: it must not grow
    /// with request paths).
    pub fn cached_decisions(&self) -> usize {
        self.decisions.read().map_or(0, |d| d.len())
    }

    /// May `role` in `domain` open the page route `path`? The server never
    /// asks this itself (the web app applies `allowedPaths`); the tests ask
    /// it to check the page rules against the spec's table.
    #[cfg(test)]
    pub fn allows_page(&self, role: &str, domain: &str, path: &str) -> bool {
        self.evaluate(role, domain, path, VIEW)
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
                    && rule[3] == VIEW
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

    /// The real policy, without the check against the service's operations
    /// (that one is the composition root's test: `crate::app`).
    async fn policy() -> Access {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tenants/access");
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        Access::from_texts(&text("model.conf"), &text("policy.csv"))
            .await
            .unwrap()
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
                assert!(a.allows_page(role, brand, p), "{role} {p}");
            }
        }
        assert!(!a.allows_page("manager", brand, "/printer"));
        assert!(!a.allows_page("worker", brand, "/settings"));
        assert!(!a.allows_page("worker", brand, "/pharmagen/batchupdate"));
        assert!(a.allows_page("worker", brand, "/products/Add_product/"));
        assert!(a.allows_page("worker", brand, "/products/42"));
    }

    #[tokio::test]
    async fn manage_org_is_admin_only_and_client_areas_are_scoped() {
        let a = policy().await;
        assert!(a.allows_page("admin", "brand:acme", "/manage_org"));
        assert!(!a.allows_page("manager", "brand:acme", "/manage_org"));
        assert!(!a.allows_page("worker", "brand:acme", "/manage_org"));
        assert!(a.allows_page("employee", "client:clientA", "/clientA/dashboard"));
        assert!(a.allows_page("admin", "client:clientA", "/clienta/reports"));
        assert!(!a.allows_page("employee", "client:clientA", "/clientB/dashboard"));
        assert!(!a.allows_page("admin", "brand:acme", "/clientA/dashboard"));
        assert!(!a.allows_page("platform_admin", "platform", "/clientA/dashboard"));
        assert!(!a.allows_page(ANONYMOUS, "*", "/"));
    }

    #[tokio::test]
    async fn client_admins_print_and_process_mapping_is_for_members() {
        let a = policy().await;
        // The spec's /printer is every admin's: client admins print, and
        // design their templates; client employees do neither.
        for page in ["/printer", "/print/lables"] {
            assert!(a.allows_page("admin", "client:clientA", page), "{page}");
            assert!(!a.allows_page("employee", "client:clientA", page), "{page}");
        }
        for (role, domain) in [
            ("admin", "brand:acme"),
            ("manager", "brand:acme"),
            ("worker", "brand:acme"),
            ("admin", "client:clientB"),
            ("employee", "client:clientB"),
        ] {
            assert!(a.allows_page(role, domain, "/ProcessMapping"), "{role}");
        }
        assert!(!a.allows_page("platform_admin", "platform", "/ProcessMapping"));
        assert!(!a.allows_page(ANONYMOUS, "*", "/ProcessMapping"));
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
            for op in [
                "login",
                "createTenant",
                "suspendTenant",
                "updateOrganisation",
            ] {
                let op = OperationId(op);
                let first = a.allows_operation(role, "brand:acme", op);
                assert_eq!(first, a.evaluate(role, "brand:acme", op.0, CALL));
                assert_eq!(first, a.allows_operation(role, "brand:acme", op));
            }
        }
    }

    #[tokio::test]
    async fn api_rules_are_keyed_by_operation_not_by_url_prefix() {
        let a = policy().await;
        let platform = |op| a.allows_operation("platform_admin", "platform", OperationId(op));
        assert!(platform("createTenant"));
        assert!(platform("suspendTenant"));
        // An operation id is matched exactly: no prefixes, no paths, no case folding.
        assert!(!a.allows_operation("platform_admin", "platform", OperationId("createTenantX")));
        assert!(!a.allows_operation("platform_admin", "platform", OperationId("createtenant")));
        assert!(!a.allows_page("platform_admin", "platform", "/api/platform/tenants"));
        assert!(!a.allows_operation("admin", "brand:acme", OperationId("suspendTenant")));
        // A page rule never grants an operation, nor an operation rule a page.
        assert!(!object_match("/products", "createTenant"));
        assert!(!object_match("createTenant", "/"));
    }

    #[tokio::test]
    async fn rules_and_operations_must_match() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tenants/access");
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let a = Access::from_texts(&text("model.conf"), &text("policy.csv"))
            .await
            .unwrap();
        let rules = a.enforcer.get_policy();
        let mut ids: Vec<&str> = rules
            .iter()
            .filter(|rule| rule.get(3).map(String::as_str) == Some(CALL))
            .map(|rule| rule[2].as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        a.check_operations(&ids).unwrap();
        let err = a.check_operations(&ids[1..]).unwrap_err();
        assert!(err.to_string().contains("names no operation"), "{err}");
        ids.push("noSuchOperation");
        let err = a.check_operations(&ids).unwrap_err();
        assert!(
            err.to_string().contains("noSuchOperation has no rule"),
            "{err}"
        );
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

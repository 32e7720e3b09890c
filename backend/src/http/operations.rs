//! Which API operation a request calls, worked out before the operation runs,
//! so that the policy is asked about the operation (`operation_id`) and never
//! about the raw request path.
//!
//! The table is built once from the APIs' own metadata and routed by poem's
//! own router, the same one that dispatches the request afterwards: a path
//! resolves here exactly when it reaches that operation there.

use std::collections::BTreeMap;

use poem::endpoint::make_sync;
use poem::http::{Method, Uri};
use poem::{Endpoint, Request, Response, Route, RouteMethod};
use poem_openapi::OpenApi;

use crate::http::modules::module_of_tag;

/// An operation's `operation_id`, as declared on its `#[oai]` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OperationId(pub &'static str);

/// The largest request body an operation accepts, unless it is listed in
/// [`LARGER_BODIES`].
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// Operations that accept larger bodies than [`DEFAULT_BODY_LIMIT`] (file
/// uploads), with their limits.
const LARGER_BODIES: &[(&str, usize)] = &[
    // A 5 MB image and its multipart framing.
    ("addProductImage", 5 * 1024 * 1024 + 64 * 1024),
    // 5000 products with long descriptions.
    ("importProducts", 4 * 1024 * 1024),
    // An EPCIS document of up to 1,000 events (`epcis::MAX_CAPTURE_BYTES`).
    ("captureEpcis", crate::epcis::MAX_CAPTURE_BYTES),
];

/// Operations whose multipart file is streamed to the operation (to a
/// temporary file) instead of being read into memory by the guard, with the
/// largest multipart body they take. Their other bodies (JSON) keep the
/// [`STREAMED_OTHER_LIMIT`].
const STREAMED_UPLOADS: &[(&str, usize)] = &[
    // A batch-update file of up to a million rows and its framing.
    (
        "createBatchUpdate",
        crate::batch_updates::MAX_FILE_BYTES + 64 * 1024,
    ),
];

/// The largest non-multipart body of a [`STREAMED_UPLOADS`] operation (the
/// batch-update form: 10,000 serials).
pub const STREAMED_OTHER_LIMIT: usize = 1024 * 1024;

/// What the guard needs to know about the operation a request calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    pub id: OperationId,
    /// The largest body it reads; None when it declares no request body
    /// (any body sent is then never read).
    pub body_limit: Option<usize>,
    /// Its multipart body is streamed, not read by the guard
    /// ([`STREAMED_UPLOADS`]).
    pub streamed: bool,
    /// The plan module it belongs to (`http::modules`, by its tag); `None`
    /// when every organisation may call it.
    pub module: Option<&'static str>,
}

pub struct Operations {
    router: Route,
    ids: Vec<&'static str>,
    /// Each operation of a module, with its module, sorted by operation id.
    modules: Vec<(&'static str, &'static str)>,
}

impl std::fmt::Debug for Operations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Operations")
            .field("ids", &self.ids)
            .finish()
    }
}

/// `/platform/tenants/{client_id}/suspend` → `/platform/tenants/:client_id/suspend`.
fn poem_path(oai_path: &str) -> String {
    oai_path
        .split('/')
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(var) => format!(":{var}"),
                None => segment.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

impl Operations {
    /// The operations of `T` (normally [`crate::http::api::Apis`]). Every
    /// operation must have an `operation_id`: the policy is keyed by it.
    pub fn of<T: OpenApi>() -> anyhow::Result<Self> {
        let mut by_path: BTreeMap<String, Vec<(Method, Operation)>> = BTreeMap::new();
        let mut ids = Vec::new();
        let mut modules = Vec::new();
        for api in T::meta() {
            for path in api.paths {
                for op in path.operations {
                    let id = op.operation_id.ok_or_else(|| {
                        anyhow::anyhow!("{} {} has no operation_id", op.method, path.path)
                    })?;
                    if ids.contains(&id) {
                        anyhow::bail!("operation_id {id} is used twice");
                    }
                    ids.push(id);
                    let streamed = STREAMED_UPLOADS.iter().find(|(s, _)| *s == id);
                    let body_limit = op.request.is_some().then(|| {
                        LARGER_BODIES
                            .iter()
                            .chain(streamed)
                            .find(|(larger, _)| *larger == id)
                            .map_or(DEFAULT_BODY_LIMIT, |(_, limit)| *limit)
                    });
                    let mut module = None;
                    for tag in &op.tags {
                        module = module.or(module_of_tag(tag)?);
                    }
                    if let Some(module) = module {
                        modules.push((id, module));
                    }
                    let operation = Operation {
                        id: OperationId(id),
                        body_limit,
                        streamed: streamed.is_some(),
                        module,
                    };
                    by_path
                        .entry(poem_path(&path.path))
                        .or_default()
                        .push((op.method, operation));
                }
            }
        }
        let mut router = Route::new();
        for (path, methods) in by_path {
            let mut route_method = RouteMethod::new();
            for (method, operation) in methods {
                route_method = route_method.method(
                    method,
                    make_sync(move |_| {
                        let mut resp = Response::default();
                        resp.set_data(operation);
                        resp
                    }),
                );
            }
            router = router.at(path, route_method);
        }
        ids.sort_unstable();
        modules.sort_unstable();
        Ok(Self {
            router,
            ids,
            modules,
        })
    }

    /// The operation `method` on `uri` (the path below `/api`) calls, if any.
    pub async fn resolve(&self, method: &Method, uri: &Uri) -> Option<Operation> {
        let probe = Request::builder()
            .method(method.clone())
            .uri(uri.clone())
            .finish();
        match self.router.call(probe).await {
            Ok(resp) => resp.data::<Operation>().copied(),
            Err(_) => None,
        }
    }

    /// The methods some operation at `uri` answers (for a 405's `Allow`).
    pub async fn allowed_methods(&self, uri: &Uri) -> Vec<&'static str> {
        let mut allowed = Vec::new();
        for (method, name) in [
            (Method::GET, "GET"),
            (Method::HEAD, "HEAD"),
            (Method::POST, "POST"),
            (Method::PUT, "PUT"),
            (Method::PATCH, "PATCH"),
            (Method::DELETE, "DELETE"),
        ] {
            if self.resolve(&method, uri).await.is_some() {
                allowed.push(name);
            }
        }
        allowed
    }

    /// Every operation id, sorted.
    pub fn ids(&self) -> &[&'static str] {
        &self.ids
    }

    /// The operations of `module`, sorted.
    pub fn of_module(&self, module: &str) -> Vec<&'static str> {
        self.modules
            .iter()
            .filter(|(_, m)| *m == module)
            .map(|(id, _)| *id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::api::Apis;

    async fn resolve(ops: &Operations, method: Method, path: &str) -> Option<&'static str> {
        ops.resolve(&method, &path.parse().unwrap())
            .await
            .map(|o| o.id.0)
    }

    #[tokio::test]
    async fn requests_resolve_to_the_operation_poem_routes_them_to() {
        let ops = Operations::of::<Apis>().unwrap();
        assert_eq!(resolve(&ops, Method::GET, "/health").await, Some("health"));
        assert_eq!(
            resolve(&ops, Method::POST, "/platform/tenants").await,
            Some("createTenant")
        );
        assert_eq!(
            resolve(&ops, Method::POST, "/platform/tenants/acme/suspend").await,
            Some("suspendTenant")
        );
        assert_eq!(
            resolve(&ops, Method::GET, "/account-info?action=otheraccountinfo").await,
            Some("listOtherAccounts")
        );
        // Wrong method, unknown or longer paths: no operation at all.
        assert_eq!(
            resolve(&ops, Method::DELETE, "/platform/tenants").await,
            None
        );
        assert_eq!(
            resolve(&ops, Method::POST, "/platform/tenants/acme").await,
            None
        );
        assert_eq!(
            resolve(&ops, Method::POST, "/platform/tenants/a/suspend/x").await,
            None
        );
        let long = format!("/{}", "x".repeat(60_000));
        assert_eq!(resolve(&ops, Method::GET, &long).await, None);
    }

    #[tokio::test]
    async fn operations_with_a_request_body_have_a_body_limit() {
        let ops = Operations::of::<Apis>().unwrap();
        for (method, path, limit) in [
            (Method::POST, "/auth/login", Some(DEFAULT_BODY_LIMIT)),
            (Method::PUT, "/organisation", Some(DEFAULT_BODY_LIMIT)),
            (Method::POST, "/auth/logout", None),
            (Method::GET, "/health", None),
        ] {
            let op = ops.resolve(&method, &path.parse().unwrap()).await.unwrap();
            assert_eq!(op.body_limit, limit, "{method} {path}");
        }
    }

    #[tokio::test]
    async fn operations_belong_to_the_module_of_their_tag() {
        let ops = Operations::of::<Apis>().unwrap();
        for (method, path, module) in [
            (Method::GET, "/product-handler", Some("products")),
            (Method::POST, "/code-jobs", Some("codes")),
            (Method::GET, "/label-templates", Some("labels")),
            (Method::GET, "/brand-scans", Some("scans")),
            (Method::GET, "/reviews", Some("scans")),
            (Method::GET, "/companies", Some("client_tools")),
            (Method::POST, "/auth/login", None),
            (Method::GET, "/organisation", None),
            (Method::GET, "/platform/tenants", None),
            (Method::GET, "/health", None),
        ] {
            let op = ops.resolve(&method, &path.parse().unwrap()).await.unwrap();
            assert_eq!(op.module, module, "{method} {path}");
        }
        assert!(ops.of_module("products").contains(&"createProduct"));
        assert!(ops.of_module("dpp").contains(&"savePassport"));
        assert!(ops.of_module("journey").contains(&"captureEpcis"));
        assert!(ops.of_module("client_tools").contains(&"createBatchUpdate"));
        assert!(ops.of_module("inventory").is_empty());
    }

    #[test]
    fn ids_are_unique_and_sorted() {
        let ops = Operations::of::<Apis>().unwrap();
        let mut sorted = ops.ids().to_vec();
        sorted.dedup();
        assert_eq!(sorted, ops.ids());
        assert!(ops.ids().contains(&"updateOrganisation"));
    }
}

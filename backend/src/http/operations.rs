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

/// The largest request body an operation accepts, unless [`BodyLimits`]
/// names it.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// The operations whose bodies are not [`DEFAULT_BODY_LIMIT`] ones. The
/// limits are the domains' own, so the composition root lists them
/// (`crate::app`'s `BODY_LIMITS`); each name must be an operation.
#[derive(Clone, Copy, Debug, Default)]
pub struct BodyLimits {
    /// Operations that accept larger bodies (file uploads), with their
    /// limits.
    pub larger: &'static [(&'static str, usize)],
    /// Operations whose multipart file is streamed to the operation (to a
    /// temporary file) instead of being read into memory by the guard, with
    /// the largest multipart body they take. Their other bodies (JSON) keep
    /// the [`STREAMED_OTHER_LIMIT`].
    pub streamed: &'static [(&'static str, usize)],
}

/// The largest non-multipart body of a streamed upload (the
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
    /// ([`BodyLimits::streamed`]).
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
    /// The operations of `T` (the root's tuple of every API), with the
    /// body limits of `limits`. Every operation must have an
    /// `operation_id`: the policy is keyed by it.
    pub fn of<T: OpenApi>(limits: BodyLimits) -> anyhow::Result<Self> {
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
                    let streamed = limits.streamed.iter().find(|(s, _)| *s == id);
                    let body_limit = op.request.is_some().then(|| {
                        limits
                            .larger
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
        for (named, _) in limits.larger.iter().chain(limits.streamed) {
            anyhow::ensure!(
                ids.contains(named),
                "a body limit names {named}, which is no operation"
            );
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
    //! The table with a small API of its own; the service's whole table is
    //! tested where it is assembled (`crate::app`).

    use poem_openapi::OpenApi;
    use poem_openapi::payload::{Json, PlainText};

    use super::*;

    struct Sample;

    #[OpenApi]
    impl Sample {
        #[oai(path = "/things", method = "get", operation_id = "listThings")]
        async fn list(&self) -> PlainText<&'static str> {
            PlainText("")
        }
        #[oai(path = "/things", method = "post", operation_id = "addThing")]
        async fn add(&self, _body: Json<String>) -> PlainText<&'static str> {
            PlainText("")
        }
        #[oai(path = "/things/:id/file", method = "put", operation_id = "putFile")]
        async fn put_file(
            &self,
            _id: poem_openapi::param::Path<String>,
            _body: Json<String>,
        ) -> PlainText<&'static str> {
            PlainText("")
        }
        #[oai(path = "/things/:id/rows", method = "post", operation_id = "addRows")]
        async fn add_rows(
            &self,
            _id: poem_openapi::param::Path<String>,
            _body: Json<String>,
        ) -> PlainText<&'static str> {
            PlainText("")
        }
    }

    const LIMITS: BodyLimits = BodyLimits {
        larger: &[("putFile", 1_000_000)],
        streamed: &[("addRows", 5_000_000)],
    };

    async fn resolve(ops: &Operations, method: Method, path: &str) -> Option<Operation> {
        ops.resolve(&method, &path.parse().unwrap()).await
    }

    #[tokio::test]
    async fn operations_resolve_with_their_body_limits() {
        let ops = Operations::of::<Sample>(LIMITS).unwrap();
        assert_eq!(ops.ids(), ["addRows", "addThing", "listThings", "putFile"]);
        let list = resolve(&ops, Method::GET, "/things").await.unwrap();
        assert_eq!(
            (list.id.0, list.body_limit, list.streamed),
            ("listThings", None, false)
        );
        let add = resolve(&ops, Method::POST, "/things").await.unwrap();
        assert_eq!(add.body_limit, Some(DEFAULT_BODY_LIMIT));
        let file = resolve(&ops, Method::PUT, "/things/a/file").await.unwrap();
        assert_eq!((file.body_limit, file.streamed), (Some(1_000_000), false));
        let rows = resolve(&ops, Method::POST, "/things/a/rows").await.unwrap();
        assert_eq!((rows.body_limit, rows.streamed), (Some(5_000_000), true));
        assert_eq!(resolve(&ops, Method::DELETE, "/things").await, None);
        assert_eq!(resolve(&ops, Method::PUT, "/things/a/file/x").await, None);
        assert_eq!(
            ops.allowed_methods(&"/things".parse().unwrap()).await,
            ["GET", "HEAD", "POST"]
        );
    }

    #[test]
    fn a_limit_for_no_operation_is_refused() {
        let limits = BodyLimits {
            larger: &[("putFiles", 1)],
            streamed: &[],
        };
        let err = Operations::of::<Sample>(limits).unwrap_err();
        assert!(err.to_string().contains("putFiles"), "{err}");
    }
}

//! The public routes outside `/api` that an app calls without signing in:
//! the resolver's JSON answer, `POST /r/review` and `POST /r/locate`. They
//! are plain poem handlers (the resolver takes every Digital Link form under
//! one route, and the scan page posts forms), so poem-openapi cannot derive
//! their contract; [`PublicApi`] writes it from the handlers' own types
//! (`ScanAnswer`, `ReviewRequest`, `LocateRequest`, `Notice`, `ErrorBody`,
//! which the handlers serialize and parse), and registers the handlers
//! themselves, so that what is described is what is served.
//! `tests/api/public_contract.rs` checks real answers against it.
//!
//! The contract (`openapi.yaml`, and `/api/openapi.yaml` served) is the
//! `/api` service's merged with this one ([`super::api::spec_yaml`]).

use std::collections::{BTreeMap, HashMap};

use poem::endpoint::BoxEndpoint;
use poem::http::{Method, StatusCode, header};
use poem::{EndpointExt, IntoEndpoint, RouteMethod};
use poem_openapi::registry::{
    MetaApi, MetaHeader, MetaMediaType, MetaOperation, MetaOperationParam, MetaParamIn, MetaPath,
    MetaRequest, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::types::{ToJSON, Type};
use poem_openapi::{OpenApi, OpenApiService, Tags};

use crate::http::error::ErrorBody;
use crate::http::response::Notice;
use crate::http::tags::ApiTags;
use crate::reviews::public::ReviewRequest;
use crate::scans::links::ResolverDescription;
use crate::scans::locate::LocateRequest;
use crate::scans::resolver::{ProductAnswer, ScanAnswer};

const JSON: &str = "application/json";
const HTML: &str = "text/html";
const FORM: &str = "application/x-www-form-urlencoded";

/// The public routes and their contract (see the module's comment).
pub struct PublicApi;

/// The public service: its spec is merged into the contract; its routes
/// are registered by [`routes`].
pub fn service() -> OpenApiService<PublicApi, ()> {
    OpenApiService::new(PublicApi, "brandops API", env!("CARGO_PKG_VERSION"))
}

/// The public routes (path, method, handler), as [`PublicApi`] registers
/// them.
pub fn routes() -> Vec<(String, Method, BoxEndpoint<'static>)> {
    let mut table = HashMap::new();
    PublicApi.add_routes(&mut table);
    let mut routes: Vec<_> = table
        .into_iter()
        .flat_map(|(path, methods)| {
            methods
                .into_iter()
                .map(move |(method, ep)| (path.clone(), method, ep))
        })
        .collect();
    routes.sort_by(|a, b| (&a.0, a.1.as_str()).cmp(&(&b.0, b.1.as_str())));
    routes
}

/// Whether `path` is one of the resolver's, which browser-based scanner
/// apps on any origin may read (CORS, as the GS1-Conformant Resolver
/// standard asks): the Digital Links and the description file. Never an
/// `/api` route, nor the scan page's own forms.
fn open_to_any_origin(path: &str) -> bool {
    path.starts_with("/01/") || path.starts_with("/.well-known/")
}

/// The methods the resolver's routes take.
const RESOLVER_METHODS: &str = "GET, HEAD, OPTIONS";

/// `endpoint` open to every origin for reading: it answers a preflight
/// (`OPTIONS`) itself with 204, and every answer carries
/// `Access-Control-Allow-Origin: *` and exposes its `Link` header. No
/// credentials are allowed: the resolver's answers need none.
pub fn with_cors(endpoint: BoxEndpoint<'static>) -> BoxEndpoint<'static> {
    endpoint
        .around(|ep, req| async move {
            let mut resp = if req.method() == Method::OPTIONS {
                poem::Response::builder()
                    .status(StatusCode::NO_CONTENT)
                    .header(header::ALLOW, RESOLVER_METHODS)
                    .header(header::ACCESS_CONTROL_ALLOW_METHODS, RESOLVER_METHODS)
                    .header(
                        header::ACCESS_CONTROL_ALLOW_HEADERS,
                        "Accept, Accept-Language",
                    )
                    .header(header::ACCESS_CONTROL_MAX_AGE, "86400")
                    .finish()
            } else {
                match ep.call(req).await {
                    Ok(resp) => resp,
                    Err(err) => err.into_response(),
                }
            };
            let headers = resp.headers_mut();
            headers.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                poem::http::HeaderValue::from_static("*"),
            );
            headers.insert(
                header::ACCESS_CONTROL_EXPOSE_HEADERS,
                poem::http::HeaderValue::from_static("Link, Retry-After, Allow"),
            );
            Ok(resp)
        })
        .boxed()
}

/// The public routes grouped by path, each answering a method it does not
/// take with 405 and the `Allow` header (RFC 9110), in the error envelope;
/// the resolver's with CORS ([`with_cors`]).
pub fn endpoints() -> Vec<(String, BoxEndpoint<'static>)> {
    let mut by_path: BTreeMap<String, (RouteMethod, Vec<String>)> = BTreeMap::new();
    for (path, method, endpoint) in routes() {
        let (methods, mut names) = by_path.remove(&path).unwrap_or_default();
        names.push(method.to_string());
        if method == Method::GET {
            names.push(Method::HEAD.to_string());
            if open_to_any_origin(&path) {
                names.push(Method::OPTIONS.to_string());
            }
        }
        by_path.insert(path, (methods.method(method, endpoint), names));
    }
    by_path
        .into_iter()
        .map(|(path, (methods, names))| {
            let allow = names.join(", ");
            let endpoint = methods
                .after(move |result| {
                    let allow = allow.clone();
                    async move {
                        match result {
                            Err(err) if err.status() == StatusCode::METHOD_NOT_ALLOWED => {
                                let body = ErrorBody {
                                    error: format!("This address takes {allow} only."),
                                    code: "method_not_allowed".to_string(),
                                };
                                Ok(poem::Response::builder()
                                    .status(StatusCode::METHOD_NOT_ALLOWED)
                                    .header(header::ALLOW, allow)
                                    .content_type(JSON)
                                    .body(body.to_json_string()))
                            }
                            other => other,
                        }
                    }
                })
                .boxed();
            let endpoint = if open_to_any_origin(&path) {
                with_cors(endpoint)
            } else {
                endpoint
            };
            (path, endpoint)
        })
        .collect()
}

fn string(description: &'static str, pattern: Option<&str>) -> MetaSchemaRef {
    MetaSchemaRef::Inline(Box::new(MetaSchema {
        description: Some(description),
        pattern: pattern.map(str::to_string),
        min_length: Some(1),
        ..MetaSchema::new("string")
    }))
}

fn path_param(name: &str, description: &str, schema: MetaSchemaRef) -> MetaOperationParam {
    MetaOperationParam {
        name: name.to_string(),
        schema,
        in_type: MetaParamIn::Path,
        description: Some(description.to_string()),
        required: true,
        deprecated: false,
        explode: true,
        style: None,
    }
}

fn json_of<T: Type>() -> MetaMediaType {
    MetaMediaType {
        content_type: JSON,
        schema: T::schema_ref(),
    }
}

fn html() -> MetaMediaType {
    MetaMediaType {
        content_type: HTML,
        schema: <String as Type>::schema_ref(),
    }
}

/// A response; `page` adds the HTML a browser gets instead of JSON.
fn response(
    status: u16,
    description: &'static str,
    json: MetaMediaType,
    page: bool,
) -> MetaResponse {
    let mut content = vec![json];
    if page {
        content.push(html());
    }
    MetaResponse {
        description,
        status: Some(status),
        status_range: None,
        content,
        headers: if status == 429 {
            vec![MetaHeader {
                name: "Retry-After".to_string(),
                description: Some("Seconds to wait before trying again.".to_string()),
                required: true,
                deprecated: false,
                schema: <u32 as Type>::schema_ref(),
            }]
        } else {
            Vec::new()
        },
    }
}

fn error(status: u16, description: &'static str, page: bool) -> MetaResponse {
    response(status, description, json_of::<ErrorBody>(), page)
}

fn operation(
    method: Method,
    id: &'static str,
    summary: &'static str,
    description: &'static str,
    params: Vec<MetaOperationParam>,
    request: Option<MetaRequest>,
    responses: Vec<MetaResponse>,
) -> MetaOperation {
    MetaOperation {
        method,
        tags: vec![ApiTags::Public.name()],
        summary: Some(summary),
        description: Some(description),
        external_docs: None,
        params,
        request,
        responses: MetaResponses { responses },
        deprecated: false,
        security: Vec::new(),
        operation_id: Some(id),
        code_samples: Vec::new(),
    }
}

const RESOLVE_DESCRIPTION: &str = "The GS1 Digital Link of a code, as its QR code carries it. \
    Send `Accept: application/json` for this JSON answer; without it, a person's browser gets \
    the scan page (HTML) with the same facts. Each call is a scan: it is counted, and a code \
    scanned against the brand's rules turns `suspicious`. The GS1-Conformant Resolver \
    standard's link types: `?linkType=linkset` (or the deprecated `all`, or `Accept: \
    application/linkset+json`) answers the resolver's links as an RFC 9264 linkset, with an \
    entry for each level of the URI up to the GTIN; `?linkType=gs1:dpp` the product's public \
    passport; `gs1:defaultLink` and `gs1:pip` this answer; neither of the first two records a \
    scan, and any other link type is 404. Every answer names its linkset in a `Link` header \
    (`rel=\"linkset\"`) and may be read from any origin (CORS). Each network may check a \
    limited number of links a minute (429 beyond it), except a genuine code's first scan.";

const PRODUCT_DESCRIPTION: &str = "A GS1 Digital Link with no serial: the GTIN alone, or with \
    its lot. It names the product (or the lot), not a pack, so the answer is the product's page \
    (or, with `Accept: application/json`, its JSON) and no verdict; no scan is recorded. A GTIN \
    no brand here holds is 404. The link types, the `Link` header, CORS and the limit per \
    network are as for a code's link.";

/// The `Link` header of the resolver's ordinary answers.
fn link_header() -> MetaHeader {
    MetaHeader {
        name: "Link".to_string(),
        description: Some(
            "The linkset of the URI (`rel=\"linkset\"`), and, for a compressed URI, the \
             uncompressed one (`rel=\"owl:sameAs\"`)."
                .to_string(),
        ),
        required: false,
        deprecated: false,
        schema: <String as Type>::schema_ref(),
    }
}

/// The linkset (`?linkType=linkset`), as GS1's linkset schema describes it.
fn linkset_media() -> MetaMediaType {
    MetaMediaType {
        content_type: "application/linkset+json",
        schema: MetaSchemaRef::Inline(Box::new(MetaSchema {
            description: Some(
                "An RFC 9264 linkset in the form of the GS1-Conformant Resolver standard's \
                 linkset schema: `linkset`, an array of entries, each with its `anchor`, \
                 `itemDescription` and its links by link type URI.",
            ),
            required: vec!["linkset"],
            properties: vec![(
                "linkset",
                MetaSchemaRef::Inline(Box::new(MetaSchema {
                    items: Some(Box::new(MetaSchemaRef::Inline(Box::new(MetaSchema::new(
                        "object",
                    ))))),
                    ..MetaSchema::new("array")
                })),
            )],
            ..MetaSchema::new("object")
        })),
    }
}

/// The answers of a Digital Link whose 200 is `T`.
fn resolver_responses<T: Type>(ok: &'static str) -> Vec<MetaResponse> {
    let mut found = response(200, ok, json_of::<T>(), true);
    found.content.push(linkset_media());
    found.headers.push(link_header());
    vec![
        found,
        error(
            400,
            "Not a Digital Link the resolver reads (`invalid_link`): a GTIN with a wrong check \
             digit, an empty or over-long lot or serial, characters outside GS1's set, an AI \
             other than the GTIN's key qualifiers (22, 10, 21) or out of their order.",
            true,
        ),
        error(
            404,
            "No such link: a GTIN no brand here holds (`not_found`, for the product's page and \
             the linkset), a link type the resolver has no link of (`no_such_link`), or no \
             published passport (`no_passport`).",
            true,
        ),
        error(
            429,
            "Too many links from this network in a minute (`too_many_requests`).",
            true,
        ),
        error(
            503,
            "The code cannot be checked right now (`unavailable`); try again later.",
            true,
        ),
    ]
}

fn resolve_responses() -> Vec<MetaResponse> {
    resolver_responses::<ScanAnswer>(
        "The verdict on the code (`not_recognised` for a code no brand issued), or the link \
         type asked for.",
    )
}

fn product_responses() -> Vec<MetaResponse> {
    resolver_responses::<ProductAnswer>(
        "The product the GTIN names (and the lot the URI gives), or the link type asked for.",
    )
}

fn link_type_param() -> MetaOperationParam {
    MetaOperationParam {
        name: "linkType".to_string(),
        schema: string("GS1 link type", None),
        in_type: MetaParamIn::Query,
        description: Some(
            "The link asked for: `linkset` (or the deprecated `all`), `gs1:dpp`, \
             `gs1:defaultLink` or `gs1:pip` (the default answer); any other is 404."
                .to_string(),
        ),
        required: false,
        deprecated: false,
        explode: true,
        style: None,
    }
}

fn lot_param() -> MetaOperationParam {
    path_param(
        "lot",
        "The lot or batch number (AI 10): 1 to 20 characters of GS1's set 82, \
         percent-encoded.",
        string("Lot number", None),
    )
}

fn gtin_param() -> MetaOperationParam {
    path_param(
        "gtin",
        "The GTIN (AI 01): 8, 12, 13 or 14 digits with a valid check digit.",
        string("GTIN", Some("^([0-9]{8}|[0-9]{12,14})$")),
    )
}

fn serial_param() -> MetaOperationParam {
    path_param(
        "serial",
        "The serial number (AI 21): 1 to 20 characters of GS1's set 82, percent-encoded.",
        string("Serial number", None),
    )
}

fn body<T: Type>(description: &'static str) -> MetaRequest {
    MetaRequest {
        description: Some(description),
        content: vec![json_of::<T>()],
        required: true,
    }
}

/// A body an app sends as JSON and the scan page as a form.
fn body_or_form<T: Type>(description: &'static str) -> MetaRequest {
    let mut request = body::<T>(description);
    request.content.push(MetaMediaType {
        content_type: FORM,
        schema: T::schema_ref(),
    });
    request
}

impl OpenApi for PublicApi {
    fn meta() -> Vec<MetaApi> {
        let resolve = MetaPath {
            path: "/01/{gtin}/21/{serial}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveCode",
                "Check a code (a scan)",
                RESOLVE_DESCRIPTION,
                vec![gtin_param(), serial_param(), link_type_param()],
                None,
                resolve_responses(),
            )],
        };
        let resolve_lot = MetaPath {
            path: "/01/{gtin}/10/{lot}/21/{serial}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveLotCode",
                "Check a code of a lot (a scan)",
                RESOLVE_DESCRIPTION,
                vec![gtin_param(), lot_param(), serial_param(), link_type_param()],
                None,
                resolve_responses(),
            )],
        };
        let product = MetaPath {
            path: "/01/{gtin}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveProduct",
                "A product's link (no serial)",
                PRODUCT_DESCRIPTION,
                vec![gtin_param(), link_type_param()],
                None,
                product_responses(),
            )],
        };
        let product_lot = MetaPath {
            path: "/01/{gtin}/10/{lot}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveLot",
                "A lot's link (no serial)",
                PRODUCT_DESCRIPTION,
                vec![gtin_param(), lot_param(), link_type_param()],
                None,
                product_responses(),
            )],
        };
        let description = MetaPath {
            path: "/.well-known/gs1resolver".to_string(),
            operations: vec![operation(
                Method::GET,
                "describeResolver",
                "The resolver description file",
                "What the GS1-Conformant Resolver standard asks a resolver to publish at this \
                 well-known address: its root, the primary keys it resolves (the GTIN, `01`) and \
                 the link type vocabulary it recognises. Readable from any origin (CORS).",
                Vec::new(),
                None,
                vec![response(
                    200,
                    "The description.",
                    json_of::<ResolverDescription>(),
                    false,
                )],
            )],
        };
        let review = MetaPath {
            path: "/r/review".to_string(),
            operations: vec![operation(
                Method::POST,
                "addReview",
                "Review the product of a scan",
                "One review per scan, with the `review_token` of the scan's answer as the proof \
                 that a person scanned a real code. An app sends JSON and gets JSON; the scan \
                 page posts the same fields as a form and gets a page (HTML) back. A request \
                 with an `Origin` header of another site is refused. Each network may send 10 \
                 reviews a minute.",
                Vec::new(),
                Some(body_or_form::<ReviewRequest>("The review.")),
                vec![
                    response(
                        201,
                        "The review was saved (`added`).",
                        json_of::<Notice>(),
                        true,
                    ),
                    error(
                        400,
                        "A rating outside 1 to 5, a text too long or with control characters \
                         (`invalid_input`), or a token that is not valid or has expired \
                         (`invalid_token`).",
                        true,
                    ),
                    error(403, "Sent from another site (`forbidden`).", true),
                    error(409, "This scan already has its review (`conflict`).", true),
                    error(413, "Over 8 KiB (`too_large`).", true),
                    error(
                        429,
                        "Too many reviews from this network (`too_many_requests`).",
                        true,
                    ),
                    error(
                        503,
                        "The review cannot be saved right now (`unavailable`).",
                        true,
                    ),
                ],
            )],
        };
        let locate = MetaPath {
            path: "/r/locate".to_string(),
            operations: vec![operation(
                Method::POST,
                "locateScan",
                "Share where a scan happened",
                "With the consumer's consent, their browser's position places the scan (to the \
                 nearest town, rounded to about a kilometre; nothing more precise is kept). Once \
                 per scan, within 24 hours of it. A request with an `Origin` header of another \
                 site is refused.",
                Vec::new(),
                Some(body::<LocateRequest>("The position.")),
                vec![
                    response(
                        200,
                        "The scan was placed (`placed`).",
                        json_of::<Notice>(),
                        false,
                    ),
                    error(
                        400,
                        "Not a position (`invalid_input`), or a token that is not valid or over \
                         24 hours old (`invalid_token`).",
                        false,
                    ),
                    error(403, "Sent from another site (`forbidden`).", false),
                    error(409, "This scan already has its place (`conflict`).", false),
                    error(413, "Over 2 KiB (`too_large`).", false),
                    error(
                        429,
                        "Too many places from this network (`too_many_requests`).",
                        false,
                    ),
                    error(
                        503,
                        "The place cannot be saved right now (`unavailable`).",
                        false,
                    ),
                ],
            )],
        };
        vec![MetaApi {
            paths: vec![
                resolve,
                resolve_lot,
                product,
                product_lot,
                description,
                review,
                locate,
            ],
        }]
    }

    fn register(registry: &mut Registry) {
        ApiTags::Public.register(registry);
        ScanAnswer::register(registry);
        ProductAnswer::register(registry);
        ResolverDescription::register(registry);
        ReviewRequest::register(registry);
        LocateRequest::register(registry);
        Notice::register(registry);
        ErrorBody::register(registry);
    }

    fn add_routes(self, table: &mut HashMap<String, HashMap<Method, BoxEndpoint<'static>>>) {
        let mut add = |path: &str, method: Method, ep: BoxEndpoint<'static>| {
            table
                .entry(path.to_string())
                .or_default()
                .insert(method, ep);
        };
        // Every Digital Link form (with or without a lot, and the links'
        // query) reaches the resolver, which parses the path itself.
        add(
            "/01/*rest",
            Method::GET,
            crate::scans::resolver::resolve
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
        add(
            "/.well-known/gs1resolver",
            Method::GET,
            crate::scans::resolver::description
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
        add(
            "/r/review",
            Method::POST,
            crate::reviews::public::add_review
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
        add(
            "/r/locate",
            Method::POST,
            crate::scans::locate::locate
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
    }
}

//! One error envelope for the whole API: `{"error": "...", "code": "..."}` with
//! a real HTTP status.
//!
//! Handlers return `ApiError`; each operation's error enum lists only the
//! statuses that operation can return, so the statuses are part of the
//! OpenAPI contract: one of the shared enums below ([`AccessError`],
//! [`LookupError`], [`WriteError`], …), made with [`error_responses!`],
//! which describes every status the same way everywhere. Internal errors
//! are logged with their cause chain and answered with an opaque 500.

use poem::http::StatusCode;
use poem_openapi::Object;

/// The JSON body of every error answer.
#[derive(Object, Debug, Clone, serde::Serialize)]
pub struct ErrorBody {
    /// A message a person can read and act on.
    pub error: String,
    /// A stable machine-readable code, e.g. `invalid_input`, `forbidden`, `csrf`.
    pub code: String,
}

#[derive(Debug, thiserror::Error)]
#[error("{status} {code}: {message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

/// The exact answer the spec gives a caller without permission.
pub const NO_PERMISSION: &str = "You do not have permission to perform this action.";

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
        }
    }
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_input", message)
    }
    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "You are not signed in, or your session has ended. Please sign in.",
        )
    }
    pub fn forbidden() -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", NO_PERMISSION)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }
    /// Logs the cause chain; the client sees only that something went wrong.
    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        let err = err.into();
        tracing::error!(error = ?err, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Something went wrong on our side. Please try again; if it keeps happening, contact support.",
        )
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.message.clone(),
            code: self.code.to_string(),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        Self::internal(err)
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> Self {
        Self::internal(err)
    }
}

impl poem::error::ResponseError for ApiError {
    fn status(&self) -> StatusCode {
        self.status
    }
    fn as_response(&self) -> poem::Response {
        json_error_response(self.status, &self.body())
    }
}

pub fn json_error_response(status: StatusCode, body: &ErrorBody) -> poem::Response {
    poem::Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(serde_json::to_vec(body).unwrap_or_default())
}

/// Turns any error poem or poem-openapi produced (a malformed JSON body, a
/// missing parameter, an unknown path) into the envelope.
pub fn render_any_error(err: poem::Error) -> poem::Response {
    if let Some(api) = err.downcast_ref::<ApiError>() {
        return api.as_response_ref();
    }
    // An operation's own error answer (already in the envelope).
    if err.is_from_response() {
        return err.into_response();
    }
    let status = err.status();
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "There is nothing at this address.".to_string()),
        StatusCode::METHOD_NOT_ALLOWED => (
            "method_not_allowed",
            "This address does not accept that method.".to_string(),
        ),
        StatusCode::UNAUTHORIZED => return ApiError::unauthenticated().as_response_ref(),
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "The request body is too large.".into()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (
            "unsupported_media_type",
            "Send the request body as JSON (Content-Type: application/json).".into(),
        ),
        s if s.is_client_error() => ("invalid_input", format!("The request is not valid: {err}")),
        _ => {
            tracing::error!(error = %err, "unhandled error");
            return ApiError::internal(anyhow::anyhow!("{err}")).as_response_ref();
        }
    };
    json_error_response(
        status,
        &ErrorBody {
            error: message,
            code: code.into(),
        },
    )
}

impl ApiError {
    pub fn as_response_ref(&self) -> poem::Response {
        json_error_response(self.status, &self.body())
    }
}

/// Declares an operation's error response enum: the listed statuses plus 500
/// (and 413 and 415 for an operation that takes a body: `with body`). Each
/// status gets its description in the contract (`error_responses!(@enum …)`
/// below); an operation uses one of the shared enums further down, and
/// declares its own only when its errors are special (a status no other
/// operation has, or a 4xx whose body extends the envelope).
///
/// ```ignore
/// error_responses!(ReadyError { Forbidden = 403, Unavailable = 503 });
/// error_responses!(CaptureError with body { Unauthorized = 401, Forbidden = 403 });
/// ```
/// An `ApiError` whose status the operation does not declare becomes a 500 and
/// is logged: declaring statuses is part of the contract, so that is a bug.
#[macro_export]
macro_rules! error_responses {
    // An operation that takes a JSON body can also be refused for its body:
    // too large (413, the guard's limit) or not JSON (415).
    ($(#[$doc:meta])* $name:ident with body { $($variant:ident = $status:tt),* $(,)? }) => {
        $crate::error_responses!($(#[$doc])* $name {
            $($variant = $status,)*
            PayloadTooLarge = 413,
            UnsupportedMediaType = 415,
        });
    };
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $status:tt),* $(,)? }) => {
        $crate::error_responses!(@enum [$(#[$doc])*] $name [] $($variant = $status,)*);

        impl From<$crate::http::error::ApiError> for $name {
            fn from(err: $crate::http::error::ApiError) -> Self {
                match err.status.as_u16() {
                    $( $status => Self::$variant(poem_openapi::payload::Json(err.body())), )*
                    500 => Self::Internal(poem_openapi::payload::Json(err.body())),
                    other => {
                        tracing::error!(status = other, code = err.code, "undeclared error status");
                        Self::Internal(poem_openapi::payload::Json(
                            $crate::http::error::ApiError::internal(anyhow::anyhow!("undeclared status {other}")).body(),
                        ))
                    }
                }
            }
        }

        impl From<sqlx::Error> for $name {
            fn from(err: sqlx::Error) -> Self {
                $crate::http::error::ApiError::from(err).into()
            }
        }

        impl From<anyhow::Error> for $name {
            fn from(err: anyhow::Error) -> Self {
                $crate::http::error::ApiError::from(err).into()
            }
        }
    };
    // The enum, once every variant has its description.
    (@enum [$($doc:tt)*] $name:ident [$($done:tt)*]) => {
        $($doc)*
        #[derive(poem_openapi::ApiResponse, Debug)]
        pub enum $name {
            $($done)*
            /// Something went wrong on the server; details are in its log.
            #[oai(status = 500)]
            Internal(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        }
    };
    // What each status means, the same for every operation.
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 400, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// The request is not valid: `error` says what to change. Nothing was changed.
            #[oai(status = 400)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 401, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Not signed in, or the session has ended.
            #[oai(status = 401)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 403, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Not allowed: the caller's role or organisation may not do this, or the
            /// request failed the origin or CSRF check; `error` and `code` say which.
            #[oai(status = 403)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 404, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Not found (or not the caller's): `error` says what. A malformed id gets
            /// the same answer as an unknown one.
            #[oai(status = 404)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 409, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Conflicts with what is stored (a duplicate, a limit, or a state that
            /// does not allow it): `error` says what. Nothing was changed.
            #[oai(status = 409)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 413, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// The request body is larger than the operation takes.
            #[oai(status = 413)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 415, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// The request body is not of a type the operation takes.
            #[oai(status = 415)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 429, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Too many attempts: `error` says when to try again.
            #[oai(status = 429)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
    (@enum $doc:tt $name:ident [$($done:tt)*] $variant:ident = 503, $($rest:tt)*) => {
        $crate::error_responses!(@enum $doc $name [$($done)*
            /// Not ready: something the service needs (its database) does not answer.
            #[oai(status = 503)]
            $variant(poem_openapi::payload::Json<$crate::http::error::ErrorBody>),
        ] $($rest)*);
    };
}

// The shared error answers. Every operation returns one of these; the name
// says the statuses: `Write…` takes a body (400, and the guard's 413 and
// 415), `Lookup` adds 404, `Conflict` 409, `State` both 404 and 409. Each
// also has 401, 403 and 500. A new operation picks the one with exactly the
// statuses it can return.

error_responses!(
    /// 401, 403. Reads that only the caller can make fail: `getSession`,
    /// `logout`, `getProfile`, `getPreferences`, `getOrganisation`,
    /// `listTenants`, `listCompanies`, `getCodeSettings`, `getScanSettings`,
    /// `listPassports`, `listBatchUpdates`, `getBatchUpdateTemplateCsv`,
    /// `getBatchUpdateTemplateXlsx`, `getClientOverview`.
    AccessError { Unauthorized = 401, Forbidden = 403 }
);
error_responses!(
    /// 400, 401, 403. Reads with query parameters: `listOtherAccounts`,
    /// `listProducts`, `exportProducts`, `listCodeJobs`, `listCodeLots`,
    /// `listLabelTemplates`, `listPrintJobs`, `listReviews`, `scanAnalytics`,
    /// `sessionsData`, `usersData`, `adminScans`.
    QueryError { BadRequest = 400, Unauthorized = 401, Forbidden = 403 }
);
error_responses!(
    /// 400, 401, 403, 404. Reads, and changes without a body, of one thing:
    /// `getProduct`, `archiveProduct`, `getProductImage`, `removeProductImage`,
    /// `getCodeJob`, `getLabelTemplate`, `deleteLabelTemplate`, `getPrintJob`,
    /// `brandScans`, `getPassport`, `listPassportVersions`,
    /// `getPassportVersion`, `exportEpcisEvents`, `productJourney`,
    /// `traceability`, `getBatchUpdate`, `getBatchUpdateResult`,
    /// `suspendTenant`, `reactivateTenant`.
    LookupError { BadRequest = 400, Unauthorized = 401, Forbidden = 403, NotFound = 404 }
);
error_responses!(
    /// 401, 403, 404. A read of one thing whose only input is its id:
    /// `getCompanyOverview`.
    NotFoundError { Unauthorized = 401, Forbidden = 403, NotFound = 404 }
);
error_responses!(
    /// 400, 401, 403, 404, 409. Operations without a body on things whose
    /// state may not allow them yet (a job not finished): `downloadCodesCsv`,
    /// `downloadCodesZip`, `summarizeCodesBulk`, `downloadCodesBulk`,
    /// `downloadPrintOutput`, `reprintPrintJob`.
    StateError { BadRequest = 400, Unauthorized = 401, Forbidden = 403, NotFound = 404, Conflict = 409 }
);
error_responses!(
    /// 400, 401, 403, 413, 415. Writes of the caller's own settings or data:
    /// `updateOrganisation`, `savePreferences`, `updateCodeSettings`,
    /// `updateScanSettings`, `importProducts`.
    WriteError with body { BadRequest = 400, Unauthorized = 401, Forbidden = 403 }
);
error_responses!(
    /// 400, 401, 403, 404, 413, 415. Writes to one thing that may not exist:
    /// `resetOrgUserPassword`, `updateReview`, `recordEpcisStep`,
    /// `updateTenantLimits`.
    WriteLookupError with body { BadRequest = 400, Unauthorized = 401, Forbidden = 403, NotFound = 404 }
);
error_responses!(
    /// 400, 401, 403, 409, 413, 415. Creations that can collide with what is
    /// stored (a duplicate): `createCompany`, `createProduct`, `createTenant`,
    /// `createBatchUpdate`.
    WriteConflictError with body { BadRequest = 400, Unauthorized = 401, Forbidden = 403, Conflict = 409 }
);
error_responses!(
    /// 400, 401, 403, 404, 409, 413, 415. Writes that name other things and
    /// can collide with what is stored: `manageOrgUser`, `updateProduct`,
    /// `addProductImage`, `createCodeJob`, `createLabelTemplate`,
    /// `updateLabelTemplate`, `previewLabel`, `createPrintJob`,
    /// `savePassport`.
    WriteStateError with body { BadRequest = 400, Unauthorized = 401, Forbidden = 403, NotFound = 404, Conflict = 409 }
);
error_responses!(
    /// 400, 401, 403, 429, 413, 415. Operations that check a password and
    /// slow down repeated failures: `login`, `changeOwnPassword`.
    WriteThrottledError with body { BadRequest = 400, Unauthorized = 401, Forbidden = 403, TooManyRequests = 429 }
);

/// Declares an operation's success response when it is one JSON body with
/// a status other than 200, or a 200 whose description is the operation's
/// own (a plain 200 is [`crate::http::response::JsonOk`]); the doc comment
/// becomes the response's description:
///
/// ```ignore
/// json_response!(
///     /// Created, with its first admin.
///     TenantCreated { 201 => Created(Tenant) }
/// );
/// ```
/// Answers with more than one success status, or none with a body, are
/// written out as a `#[derive(ApiResponse)]` enum.
#[macro_export]
macro_rules! json_response {
    ($(#[$doc:meta])* $name:ident { $status:literal => $variant:ident($body:ty) }) => {
        #[derive(poem_openapi::ApiResponse)]
        pub enum $name {
            $(#[$doc])*
            #[oai(status = $status)]
            $variant(poem_openapi::payload::Json<$body>),
        }
    };
}

//! Every SQL statement is checked against the real, migrated schema, in the
//! role it runs as (ADR 0008): a typo in a table or column name fails
//! `make test`, not a person's request.
//!
//! The test reads the crate's sources with `syn` and finds every call of
//! `sqlx::query`, `query_as`, `query_scalar` and `raw_sql` (and their
//! `_with` forms), and of the `copy_in_raw` method (`COPY … FROM STDIN`,
//! which cannot be prepared: it is run with no rows instead). It holds the layout rules that make that complete:
//!
//! - SQL lives only in a domain's `store.rs` (or `store/`) and in `src/db/`;
//! - in a `store.rs`, every statement is a string literal (nothing built at
//!   run time escapes the check); statements built from identifiers (DDL for
//!   a tenant's schema and role) live in `src/db/` only.
//!
//! Then it prepares each literal statement with PostgreSQL: one that names
//! `platform.` as the runtime role on the platform tables, any other inside
//! a tenant transaction (the tenant's role and schema), and those of
//! `src/db/` as the owner that runs them.

use std::path::{Path, PathBuf};

use sqlx::{Executor, SqlSafeStr};
use syn::visit::Visit;

use crate::helpers::TestApp;

const SQL_FUNCTIONS: &[&str] = &[
    "query",
    "query_as",
    "query_scalar",
    "query_with",
    "query_as_with",
    "query_scalar_with",
    "raw_sql",
];

/// One SQL call found in the sources.
#[derive(Debug)]
struct Statement {
    /// `src/...` path and enclosing function, for messages.
    place: String,
    /// The statement, when it is a string literal.
    sql: Option<String>,
    /// `raw_sql` (several statements, simple protocol: cannot be prepared).
    raw: bool,
    /// `copy_in_raw`: a `COPY … FROM STDIN`.
    copy: bool,
}

struct Finder<'a> {
    file: &'a str,
    function: String,
    found: Vec<Statement>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        let outer = std::mem::replace(&mut self.function, item.sig.ident.to_string());
        syn::visit::visit_item_fn(self, item);
        self.function = outer;
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        let outer = std::mem::replace(&mut self.function, item.sig.ident.to_string());
        syn::visit::visit_impl_item_fn(self, item);
        self.function = outer;
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(path) = &*call.func
            && let Some(last) = path.path.segments.last()
            && SQL_FUNCTIONS.contains(&last.ident.to_string().as_str())
            && path.path.segments.len() >= 2
            && path.path.segments[0].ident == "sqlx"
        {
            let sql = match call.args.first() {
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) => Some(s.value()),
                _ => None,
            };
            self.found.push(Statement {
                place: format!("{} in {}()", self.file, self.function),
                sql,
                raw: last.ident == "raw_sql",
                copy: false,
            });
        }
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "copy_in_raw" {
            let sql = match call.args.first() {
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) => Some(s.value()),
                _ => None,
            };
            self.found.push(Statement {
                place: format!("{} in {}()", self.file, self.function),
                sql,
                raw: false,
                copy: true,
            });
        }
        syn::visit::visit_expr_method_call(self, call);
    }
}

/// Where a file's SQL may live and how it is checked.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// A domain's `store.rs` (or a file under `store/`).
    Store,
    /// `src/db/`: migrations and tenant provisioning, run as the owner.
    Db,
    /// Anywhere else: no SQL allowed.
    Elsewhere,
}

fn kind_of(file: &str) -> Kind {
    if file.starts_with("src/db/") {
        Kind::Db
    } else if file.ends_with("/store.rs") || file.contains("/store/") {
        Kind::Store
    } else {
        Kind::Elsewhere
    }
}

/// The statements of `files` (path relative to the crate, source text), and
/// the layout rules they break.
fn scan(files: &[(String, String)]) -> (Vec<(Kind, Statement)>, Vec<String>) {
    let mut statements = Vec::new();
    let mut broken = Vec::new();
    for (file, text) in files {
        let ast = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut finder = Finder {
            file,
            function: "<module>".into(),
            found: Vec::new(),
        };
        finder.visit_file(&ast);
        let kind = kind_of(file);
        for statement in finder.found {
            match (kind, &statement.sql) {
                (Kind::Elsewhere, _) => broken.push(format!(
                    "{}: SQL outside a store.rs; move it into the domain's store.rs",
                    statement.place
                )),
                (Kind::Store, None) => broken.push(format!(
                    "{}: a store.rs statement must be a string literal, so that it can be checked",
                    statement.place
                )),
                (Kind::Store, Some(_)) if statement.raw => broken.push(format!(
                    "{}: raw_sql cannot be checked; use one statement with sqlx::query*",
                    statement.place
                )),
                _ => statements.push((kind, statement)),
            }
        }
    }
    (statements, broken)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn crate_sources() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(&root.join("src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Prepares every literal statement in the role it runs as; the failures.
async fn prepare_all(app: &TestApp, statements: &[(Kind, Statement)]) -> Vec<String> {
    let tenant = app.brand().await.tenant;
    let mut failures = Vec::new();
    for (kind, statement) in statements {
        // Multi-statement `raw_sql` of src/db/ (DDL, role switches) cannot
        // be prepared; the tests of onboarding and migrations run it.
        let Some(sql) = statement.sql.as_ref().filter(|_| !statement.raw) else {
            continue;
        };
        let prepared = match kind {
            Kind::Db => {
                let mut conn = app.owner.acquire().await.unwrap();
                conn.prepare(sqlx::AssertSqlSafe(sql.clone()).into_sql_str())
                    .await
                    .map(drop)
            }
            // Calls of `platform.tenant_*` functions run on tenant
            // connections; every other platform statement as the platform role.
            _ if sql.contains("platform.") && !sql.contains("platform.tenant_") => {
                let mut tx = app.state.db.begin_platform().await.unwrap();
                tx.prepare(sqlx::AssertSqlSafe(sql.clone()).into_sql_str())
                    .await
                    .map(drop)
            }
            // A COPY cannot be prepared: it runs, with no rows, and rolls back.
            _ if statement.copy => {
                let mut tx = app.state.db.begin_tenant(&tenant).await.unwrap();
                // The batch-update job's temporary staging table, which its
                // statements read and write.
                brandops::batch_updates::store::create_stage(&mut tx)
                    .await
                    .unwrap();
                match tx.copy_in_raw(sql).await {
                    Ok(copy) => copy.finish().await.map(drop),
                    Err(err) => Err(err),
                }
            }
            _ => {
                let mut tx = app.state.db.begin_tenant(&tenant).await.unwrap();
                brandops::batch_updates::store::create_stage(&mut tx)
                    .await
                    .unwrap();
                tx.prepare(sqlx::AssertSqlSafe(sql.clone()).into_sql_str())
                    .await
                    .map(drop)
            }
        };
        if let Err(err) = prepared {
            failures.push(format!("{}: {err}\n    {sql}", statement.place));
        }
    }
    failures
}

#[tokio::test]
async fn every_statement_prepares_against_the_migrated_schema() {
    let app = TestApp::spawn().await;
    let (statements, broken) = scan(&crate_sources());
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    let stores = statements
        .iter()
        .filter(|(kind, _)| *kind == Kind::Store)
        .count();
    assert!(
        stores >= 30,
        "found only {stores} store statements: is the scan still finding them?"
    );
    let failures = prepare_all(&app, &statements).await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The check itself can fail: a typo in a column, a table of the wrong
/// schema, SQL outside a store, and SQL built at run time are all caught.
#[tokio::test]
async fn the_check_catches_typos_and_misplaced_sql() {
    let app = TestApp::spawn().await;
    let source = |file: &str, body: &str| (file.to_string(), body.to_string());
    let (statements, broken) = scan(&[
        source(
            "src/widgets/store.rs",
            r#"
            pub async fn typo(c: &mut PgConnection) {
                sqlx::query("SELECT display_nam FROM org_settings").execute(c).await;
            }
            pub async fn platform_typo(c: &mut PgConnection) {
                sqlx::query_scalar::<_, i64>("SELECT count(*) FROM platform.acounts").fetch_one(c).await;
            }
            pub async fn copy_typo(c: &mut PgConnection) {
                c.copy_in_raw("COPY codes (serial, job_seq, positon) FROM STDIN").await;
            }
            pub async fn fine(c: &mut PgConnection) {
                sqlx::query_as::<_, (String,)>("SELECT display_name FROM org_settings").fetch_one(c).await;
            }
            pub async fn built(c: &mut PgConnection, t: &str) {
                sqlx::query(AssertSqlSafe(format!("SELECT * FROM {t}"))).execute(c).await;
            }
            "#,
        ),
        source(
            "src/widgets/api.rs",
            r#"
            impl WidgetsApi {
                async fn list(&self) { sqlx::query("SELECT 1").execute(&pool).await; }
            }
            "#,
        ),
    ]);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("built()") && broken[0].contains("string literal"));
    assert!(broken[1].contains("src/widgets/api.rs in list()"));
    assert!(broken[1].contains("outside a store.rs"));
    let failures = prepare_all(&app, &statements).await;
    assert_eq!(failures.len(), 3, "{failures:?}");
    assert!(failures[0].contains("typo()") && failures[0].contains("display_nam"));
    assert!(failures[1].contains("platform_typo()") && failures[1].contains("acounts"));
    assert!(failures[2].contains("copy_typo()") && failures[2].contains("positon"));
}

//! The rule of the composition root, as a test: infrastructure names no
//! domain.
//!
//! The domains are every top-level module of `lib.rs` that is not in
//! [`INFRASTRUCTURE`], so a new domain is covered the day it is added. Each
//! source file of the infrastructure (the root `app` aside) is read, and
//! every path that reaches a top-level module is collected: `crate::x`,
//! `$crate::x`, `crate::{x, y::z}`, and `super::` chains that climb to the
//! crate root. Doc comments count too: an intra-doc link to a domain is a
//! dependency on it. A domain among them fails the test.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The top-level modules that are infrastructure. `app` is the composition
/// root: it is not checked, since wiring the domains is its work.
const INFRASTRUCTURE: &[&str] = &[
    "app",
    "audit",
    "config",
    "db",
    "gs1",
    "http",
    "identity",
    "jobs",
    "storage",
    "telemetry",
    "tenancy",
    "uploads",
];

/// The composition root, the one infrastructure module that may name domains.
const ROOT: &str = "app";

/// The modules `lib.rs` declares (`pub mod x;`, `mod x;`), in order.
fn top_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .map(str::trim)
        .filter_map(|line| {
            let line = line.strip_prefix("pub ").unwrap_or(line);
            let name = line.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            Some(name.to_string())
        })
        .collect()
}

/// The domains: every module of `lib.rs` that is not infrastructure.
fn domains(lib_rs: &str) -> Vec<String> {
    top_modules(lib_rs)
        .into_iter()
        .filter(|m| !INFRASTRUCTURE.contains(&m.as_str()))
        .collect()
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A small cursor over source text.
struct Cursor {
    chars: Vec<char>,
    at: usize,
}

impl Cursor {
    fn new(text: &str) -> Self {
        Self {
            chars: text.chars().collect(),
            at: 0,
        }
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    /// Takes `::` (after spaces); false when it is not next.
    fn path_separator(&mut self) -> bool {
        self.skip_space();
        if self.chars.get(self.at) == Some(&':') && self.chars.get(self.at + 1) == Some(&':') {
            self.at += 2;
            self.skip_space();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<String> {
        let start = self.at;
        while self.chars.get(self.at).is_some_and(|c| is_ident_char(*c)) {
            self.at += 1;
        }
        (self.at > start).then(|| self.chars[start..self.at].iter().collect())
    }

    /// After `{`: the first segment of each item of the group, up to its `}`.
    fn group_heads(&mut self) -> Vec<String> {
        let mut heads = Vec::new();
        let mut depth = 1;
        let mut item_start = true;
        while let Some(&c) = self.chars.get(self.at) {
            match c {
                '{' => {
                    depth += 1;
                    self.at += 1;
                }
                '}' => {
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        break;
                    }
                }
                ',' if depth == 1 => {
                    item_start = true;
                    self.at += 1;
                }
                c if item_start && depth == 1 && is_ident_char(c) => {
                    if let Some(head) = self.ident() {
                        heads.push(head);
                    }
                    item_start = false;
                }
                c if item_start && c.is_whitespace() => self.at += 1,
                _ => {
                    item_start = false;
                    self.at += 1;
                }
            }
        }
        heads
    }

    /// The top-level modules named right after a path that reached the
    /// crate root (`x` or `{x, y}`).
    fn heads_after_root(&mut self) -> Vec<String> {
        match self.chars.get(self.at) {
            Some('{') => {
                self.at += 1;
                self.group_heads()
            }
            _ => self.ident().into_iter().collect(),
        }
    }
}

/// The word starting at `at` is `word`, standing alone (`crate`, not
/// `my_crate` or `crates`).
fn word_at(chars: &[char], at: usize, word: &str) -> bool {
    let len = word.chars().count();
    let before = at.checked_sub(1).and_then(|i| chars.get(i));
    before.is_none_or(|c| !is_ident_char(*c))
        && chars
            .get(at..at + len)
            .is_some_and(|w| w.iter().copied().eq(word.chars()))
        && chars.get(at + len).is_none_or(|c| !is_ident_char(*c))
}

/// The top-level modules that `text`, the source of a file `depth` modules
/// below the crate root (`src/http/guard.rs`: 2; `src/http/mod.rs` and
/// `src/config.rs`: 1), names. A `super::` chain counts when it climbs
/// `depth` levels or more (strict for inline modules, which climb further).
fn named_top_modules(text: &str, depth: usize) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut cursor = Cursor::new(text);
    while cursor.at < cursor.chars.len() {
        let at = cursor.at;
        if word_at(&cursor.chars, at, "crate") {
            cursor.at += "crate".len();
            if cursor.path_separator() {
                found.extend(cursor.heads_after_root());
            }
        } else if word_at(&cursor.chars, at, "super") {
            let mut climbs = 0;
            while word_at(&cursor.chars, cursor.at, "super") {
                cursor.at += "super".len();
                climbs += 1;
                if !cursor.path_separator() {
                    break;
                }
            }
            if climbs >= depth {
                found.extend(cursor.heads_after_root());
            }
        } else {
            cursor.at += 1;
        }
    }
    found
}

/// How many modules below the crate root a file under `src/` is.
fn depth_of(relative: &Path) -> usize {
    let parts = relative.components().count();
    let is_mod = relative
        .file_name()
        .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
    if is_mod { parts - 1 } else { parts }
}

/// Every domain each file names: `(file, domain)`, for files given as their
/// path below `src/` and their text.
fn violations(files: &[(PathBuf, String)], domains: &[String]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, text) in files {
        for named in named_top_modules(text, depth_of(path)) {
            if domains.contains(&named) {
                found.push((path.display().to_string(), named));
            }
        }
    }
    found
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

/// The sources of the infrastructure, the root aside, as paths below `src/`.
fn infrastructure_sources(src: &Path) -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    for module in INFRASTRUCTURE.iter().filter(|m| **m != ROOT) {
        let file = src.join(format!("{module}.rs"));
        let dir = src.join(module);
        assert!(
            file.is_file() || dir.is_dir(),
            "infrastructure module {module} has neither src/{module}.rs nor src/{module}/"
        );
        if file.is_file() {
            paths.push(file);
        }
        if dir.is_dir() {
            rust_files(&dir, &mut paths);
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.strip_prefix(src).unwrap().to_path_buf(), text)
        })
        .collect()
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn infrastructure_imports_no_domain() {
    let src = src_dir();
    let lib_rs = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let domains = domains(&lib_rs);
    let files = infrastructure_sources(&src);
    assert!(
        files.len() > 20,
        "only {} infrastructure files found",
        files.len()
    );
    let found = violations(&files, &domains);
    assert!(
        found.is_empty(),
        "infrastructure imports no domain; the composition root (src/app/) wires them \
         (docs/adding-a-domain.md). Found:\n{}",
        found
            .iter()
            .map(|(file, domain)| format!("  src/{file} names crate::{domain}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_domains_are_the_modules_of_lib_rs_that_are_not_infrastructure() {
    let lib_rs = std::fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let modules = top_modules(&lib_rs);
    for infrastructure in INFRASTRUCTURE {
        assert!(
            modules.iter().any(|m| m == infrastructure),
            "{infrastructure} is no module of lib.rs: update INFRASTRUCTURE"
        );
    }
    let today = domains(&lib_rs);
    for domain in ["accounts", "auth", "scans", "reviews", "tenants", "labels"] {
        assert!(today.iter().any(|d| d == domain), "{domain}");
    }
    for infrastructure in ["app", "http", "db", "jobs", "tenancy", "audit"] {
        assert!(
            !today.iter().any(|d| d == infrastructure),
            "{infrastructure}"
        );
    }
    // lib.rs lists the domains under its `// Domains` comment (ADR 0007's
    // and the README's lists are checked against those): the same set.
    let start = lib_rs
        .lines()
        .position(|l| l.trim_start().starts_with("// Domains"))
        .expect("lib.rs has a `// Domains` comment");
    let listed = top_modules(&lib_rs.lines().skip(start).collect::<Vec<_>>().join("\n"));
    assert_eq!(listed, today, "the modules under lib.rs's `// Domains`");
    // A new module is a domain unless it is listed as infrastructure.
    let grown = format!("{lib_rs}\npub mod widgets;\n");
    assert!(domains(&grown).contains(&"widgets".to_string()));
}

#[test]
fn the_checker_finds_every_way_to_name_a_module() {
    let named = |text: &str, depth: usize| -> Vec<String> {
        named_top_modules(text, depth).into_iter().collect()
    };
    assert_eq!(
        named("use crate::scans::ingest::ScanWriters;", 2),
        ["scans"]
    );
    assert_eq!(
        named(
            "use crate::{\n    auth::{Session, store},\n    db::Db,\n    tenants,\n};",
            2
        ),
        ["auth", "db", "tenants"]
    );
    assert_eq!(
        named("let x = crate :: products :: list();", 1),
        ["products"]
    );
    assert_eq!(named("$crate::codes::Serial::parse(s)", 2), ["codes"]);
    assert_eq!(named("/// See [`crate::labels::print`].", 1), ["labels"]);
    // `super::` chains count when they reach the crate root.
    assert_eq!(named("use super::super::codes::Serial;", 2), ["codes"]);
    assert_eq!(
        named("use super::super::{codes, http};", 2),
        ["codes", "http"]
    );
    assert!(named("use super::super::store;", 3).is_empty());
    assert!(named("use super::store;", 2).is_empty());
    // Words that only contain `crate` or `super` are not paths.
    assert!(named("my_crate::scans; crates::x; superb::tenants", 1).is_empty());
    assert!(named("the tenants::store module", 1).is_empty());
}

#[test]
fn the_check_fires_on_an_infrastructure_file_that_names_a_domain() {
    let lib_rs = "pub mod http;\npub mod db;\npub mod widgets;\npub mod scans;\n";
    let domains = domains(lib_rs);
    let files = vec![
        (
            PathBuf::from("http/state.rs"),
            "use crate::http::access::Access;\npub struct S { w: crate::widgets::Cache }\n"
                .to_string(),
        ),
        (
            PathBuf::from("db/mod.rs"),
            "use crate::{http::error::ApiError, scans::Place};\n".to_string(),
        ),
        (
            PathBuf::from("db/pools.rs"),
            "use super::DbRoles;\n".to_string(),
        ),
    ];
    assert_eq!(
        violations(&files, &domains),
        [
            ("http/state.rs".to_string(), "widgets".to_string()),
            ("db/mod.rs".to_string(), "scans".to_string()),
        ]
    );
    assert_eq!(depth_of(Path::new("http/guard.rs")), 2);
    assert_eq!(depth_of(Path::new("http/mod.rs")), 1);
    assert_eq!(depth_of(Path::new("config.rs")), 1);
}

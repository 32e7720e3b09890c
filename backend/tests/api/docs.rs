//! The lists of domains that people read cannot drift from the code: every
//! domain module of `backend/src/lib.rs` (the `pub mod` lines after its
//! "// Domains" comment) is named in ADR 0007's "Domains today" and in the
//! README's "Where things are".

use crate::helpers::repo_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// The domain modules `lib.rs` declares after its `// Domains` comment.
fn domains_of(lib_rs: &str) -> Vec<String> {
    let start = lib_rs
        .lines()
        .position(|l| l.trim_start().starts_with("// Domains"))
        .expect("backend/src/lib.rs has a `// Domains` comment above the domain modules");
    lib_rs
        .lines()
        .skip(start)
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .collect()
}

/// The text from the line that contains `heading` up to the next line that
/// starts with `until` (or the end).
fn section<'a>(text: &'a str, heading: &str, until: &str) -> &'a str {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in the document"));
    let rest = &text[start + heading.len()..];
    let end = rest.find(until).unwrap_or(rest.len());
    &rest[..end]
}

/// The domains that `text` does not name as `` `domain` ``.
fn missing_from(domains: &[String], text: &str) -> Vec<String> {
    domains
        .iter()
        .filter(|d| !text.contains(&format!("`{d}`")))
        .cloned()
        .collect()
}

#[test]
fn every_domain_is_in_adr_0007_and_the_readme() {
    let domains = domains_of(&read("backend/src/lib.rs"));
    assert!(
        domains.len() >= 10,
        "lib.rs lists too few domains: {domains:?}"
    );
    let adr = read("docs/adr/0007-domain-layout.md");
    let adr_list = section(&adr, "Domains today:", "\n\n");
    let readme = read("README.md");
    let readme_list = section(&readme, "## Where things are", "\n## ");
    let missing_adr = missing_from(&domains, adr_list);
    let missing_readme = missing_from(&domains, readme_list);
    assert!(
        missing_adr.is_empty() && missing_readme.is_empty(),
        "domains of backend/src/lib.rs missing from ADR 0007's \"Domains today\": \
         {missing_adr:?}; from the README's \"Where things are\": {missing_readme:?}"
    );
}

#[test]
fn the_check_finds_a_missing_domain() {
    let lib = "pub mod http;\n// Domains\npub mod widgets;\npub mod gadgets;\n";
    let domains = domains_of(lib);
    assert_eq!(domains, ["widgets", "gadgets"]);
    assert_eq!(
        missing_from(&domains, "one folder per domain (`widgets`)"),
        ["gadgets"]
    );
    assert_eq!(
        section("a\nDomains today: `x`.\n\nnext", "Domains today:", "\n\n"),
        " `x`."
    );
}

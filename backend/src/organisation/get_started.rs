//! The dashboard's "Get started" checklist: the first steps of a new
//! organisation, each ticked from the organisation's own data (one
//! statement, `store::get_started_facts`), and the page that does it.
//!
//! A brand adds a product, generates codes, designs a label, prints it, scans
//! a code with a phone and publishes a passport. A pharmaceutical client
//! organisation adds a product, generates its codes, prints them, then checks
//! a batch update with a dry run and applies it. A step of a plan module the
//! organisation does not have is left out; a step whose page the caller's
//! role may not open is shown without a link.

use crate::http::access::path_under;
use crate::tenancy::TenantKind;

/// What the organisation has done, read from its own tables.
#[derive(sqlx::FromRow, Debug, Default, Clone, Copy)]
pub struct Facts {
    pub has_product: bool,
    pub has_codes: bool,
    pub has_label_design: bool,
    pub has_print_job: bool,
    pub has_scan: bool,
    pub has_passport: bool,
    pub has_checked_batch: bool,
    pub has_applied_batch: bool,
}

/// A step of the checklist, before the caller's access is applied.
struct StepDef {
    key: &'static str,
    title: &'static str,
    /// What the step asks, in a sentence.
    hint: &'static str,
    /// The plan module it belongs to: without it the step is left out.
    module: &'static str,
    /// The pages where it is done, the first one the caller may open wins.
    pages: &'static [&'static str],
    done: fn(&Facts) -> bool,
}

const BRAND_STEPS: &[StepDef] = &[
    StepDef {
        key: "product",
        title: "Add a product",
        hint: "Its name, GTIN and SKU id.",
        module: "products",
        pages: &["/products/Add_product"],
        done: |f| f.has_product,
    },
    StepDef {
        key: "codes",
        title: "Generate codes",
        hint: "Open a product and generate its serialized codes.",
        module: "codes",
        pages: &["/products"],
        done: |f| f.has_codes,
    },
    StepDef {
        key: "label",
        title: "Design a label",
        hint: "A label design with its barcode and sheet layout.",
        module: "labels",
        pages: &["/print/lables"],
        done: |f| f.has_label_design,
    },
    StepDef {
        key: "print",
        title: "Print labels",
        hint: "A print job of a code job's labels, as PDF or ZPL.",
        module: "labels",
        pages: &["/printer"],
        done: |f| f.has_print_job,
    },
    StepDef {
        key: "scan",
        title: "Scan one code with your phone",
        hint: "A product's page shows a sample code to scan.",
        module: "scans",
        pages: &["/products"],
        done: |f| f.has_scan,
    },
    StepDef {
        key: "passport",
        title: "Publish a passport",
        hint: "Fill in a product's digital passport and publish it.",
        module: "dpp",
        pages: &["/DPP"],
        done: |f| f.has_passport,
    },
];

/// The batch-update pages of the client areas (each client opens its own).
const BATCH_PAGES: &[&str] = &[
    "/gme/batchUpdate",
    "/clientB/dashboard",
    "/pmbi/batchUpdate",
];

const CLIENT_STEPS: &[StepDef] = &[
    StepDef {
        key: "product",
        title: "Add a product",
        hint: "Its name, GTIN and SKU id.",
        module: "products",
        pages: &["/products/Add_product"],
        done: |f| f.has_product,
    },
    StepDef {
        key: "codes",
        title: "Generate and download codes",
        hint: "A code job for a batch, then its CSV or ZIP.",
        module: "codes",
        pages: &["/gme/codeDownload", "/pmbi/codeDownload", "/products"],
        done: |f| f.has_codes,
    },
    StepDef {
        key: "print",
        title: "Print labels",
        hint: "A print job of a code job's labels, as PDF or ZPL.",
        module: "labels",
        pages: &["/printer"],
        done: |f| f.has_print_job,
    },
    StepDef {
        key: "batch_check",
        title: "Check a batch update",
        hint: "Upload the batch data of your codes and check it with a dry run.",
        module: "client_tools",
        pages: BATCH_PAGES,
        done: |f| f.has_checked_batch,
    },
    StepDef {
        key: "batch_apply",
        title: "Apply a batch update",
        hint: "Apply a checked file: the scan page then shows the batch data.",
        module: "client_tools",
        pages: BATCH_PAGES,
        done: |f| f.has_applied_batch,
    },
];

/// A step as the caller sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub key: &'static str,
    pub title: &'static str,
    pub hint: &'static str,
    pub done: bool,
    /// The page to go to; `None` when the caller may open none of them.
    pub path: Option<&'static str>,
}

/// The checklist of an organisation of `kind` with plan `modules`, for a
/// caller who may open `allowed_paths` (the policy's prefixes).
pub fn steps(
    kind: TenantKind,
    modules: &[String],
    allowed_paths: &[String],
    facts: &Facts,
) -> Vec<Step> {
    let defs = match kind {
        TenantKind::Brand => BRAND_STEPS,
        TenantKind::Client => CLIENT_STEPS,
    };
    let may_open = |page: &str| allowed_paths.iter().any(|p| path_under(page, p));
    defs.iter()
        .filter(|d| modules.iter().any(|m| m == d.module))
        .map(|d| Step {
            key: d.key,
            title: d.title,
            hint: d.hint,
            done: (d.done)(facts),
            path: d.pages.iter().copied().find(|page| may_open(page)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    const ALL_MODULES: &[&str] = &[
        "products",
        "codes",
        "labels",
        "scans",
        "dpp",
        "client_tools",
    ];

    #[test]
    fn a_brand_has_six_steps_in_order() {
        let s = steps(
            TenantKind::Brand,
            &strings(ALL_MODULES),
            &strings(&["/products", "/print/lables", "/printer", "/DPP"]),
            &Facts::default(),
        );
        let keys: Vec<_> = s.iter().map(|s| s.key).collect();
        assert_eq!(
            keys,
            ["product", "codes", "label", "print", "scan", "passport"]
        );
        assert!(s.iter().all(|s| !s.done && s.path.is_some()));
    }

    #[test]
    fn facts_tick_their_steps_only() {
        let facts = Facts {
            has_product: true,
            has_print_job: true,
            ..Facts::default()
        };
        let s = steps(
            TenantKind::Brand,
            &strings(ALL_MODULES),
            &strings(&["/products"]),
            &facts,
        );
        let done: Vec<_> = s.iter().filter(|s| s.done).map(|s| s.key).collect();
        assert_eq!(done, ["product", "print"]);
    }

    #[test]
    fn a_page_the_role_cannot_open_is_no_link() {
        // A brand's worker: products and label designs, not /printer or /DPP.
        let s = steps(
            TenantKind::Brand,
            &strings(ALL_MODULES),
            &strings(&["/", "/products", "/products/Add_product", "/print/lables"]),
            &Facts::default(),
        );
        let path = |key: &str| s.iter().find(|s| s.key == key).unwrap().path;
        assert_eq!(path("product"), Some("/products/Add_product"));
        assert_eq!(path("label"), Some("/print/lables"));
        assert_eq!(path("print"), None);
        assert_eq!(path("passport"), None);
    }

    #[test]
    fn steps_of_modules_off_the_plan_are_left_out() {
        let s = steps(
            TenantKind::Brand,
            &strings(&["products", "codes"]),
            &strings(&["/products"]),
            &Facts::default(),
        );
        let keys: Vec<_> = s.iter().map(|s| s.key).collect();
        assert_eq!(keys, ["product", "codes"]);
    }

    #[test]
    fn a_client_links_to_its_own_area() {
        let modules = strings(ALL_MODULES);
        let client_a = steps(
            TenantKind::Client,
            &modules,
            &strings(&["/", "/clientA", "/gme", "/profile"]),
            &Facts::default(),
        );
        let path = |s: &[Step], key: &str| s.iter().find(|s| s.key == key).unwrap().path;
        assert_eq!(path(&client_a, "codes"), Some("/gme/codeDownload"));
        assert_eq!(path(&client_a, "batch_apply"), Some("/gme/batchUpdate"));
        assert_eq!(path(&client_a, "product"), None);
        let client_b = steps(
            TenantKind::Client,
            &modules,
            &strings(&["/", "/clientB", "/pmbi", "/products", "/printer"]),
            &Facts::default(),
        );
        assert_eq!(path(&client_b, "codes"), Some("/pmbi/codeDownload"));
        assert_eq!(path(&client_b, "batch_check"), Some("/clientB/dashboard"));
        assert_eq!(path(&client_b, "print"), Some("/printer"));
        let keys: Vec<_> = client_b.iter().map(|s| s.key).collect();
        assert_eq!(
            keys,
            ["product", "codes", "print", "batch_check", "batch_apply"]
        );
    }
}

//! What the public sees of a passport: its public fields only (a field's
//! own visibility, else its section's), as JSON (the resolver's answer to
//! `linkType=gs1:dpp` with `Accept: application/json`) and as an HTML
//! `<section>` for the scan page, every value escaped and links only when
//! they are `https`.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::store::StoredVersion;
use super::{DocumentsSection, HttpsUrl, PassportData, PublicSection};
use crate::http::html::escape;

/// A passport as the public sees it. Serializes as
/// `{product_id, product_name, gtin, lot?, version, updated_at, sections}`,
/// where `sections` holds each section that has a public field, by its API
/// name, with its public fields only (a list section: `items`, its public
/// items) and no `visibility` or `field_visibility`.
#[derive(Debug)]
pub struct PublicPassport {
    pub product_id: Uuid,
    pub product_name: String,
    /// GTIN-14.
    pub gtin: String,
    /// The lot whose own passport this is; None for the product's.
    pub lot: Option<String>,
    pub version: i32,
    pub updated_at: DateTime<Utc>,
    /// Every restricted field is emptied (and every restricted item
    /// dropped) here: nothing of them can leak.
    data: PassportData,
}

impl PublicPassport {
    pub(super) fn new(stored: &StoredVersion, data: PassportData) -> Self {
        Self {
            product_id: stored.product_id,
            product_name: stored.product_name.clone(),
            gtin: stored.gtin.clone(),
            lot: Some(stored.lot.clone()).filter(|l| !l.is_empty()),
            version: stored.version,
            updated_at: stored.created_at,
            data: data.public_only(),
        }
    }

    /// The public fields, as JSON, by section: sections without a public
    /// field left out, and no visibility keys.
    pub fn sections(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut out = serde_json::Map::new();
        for (name, section) in self.data.sections() {
            let fields = section.public_fields();
            if fields.is_empty() {
                continue;
            }
            let Some(serde_json::Value::Object(all)) = section.json() else {
                continue;
            };
            let mut shown = serde_json::Map::new();
            for (field, mut value) in all {
                if !fields.contains(&field.as_str()) {
                    continue;
                }
                if let serde_json::Value::Array(items) = &mut value {
                    for item in items {
                        if let serde_json::Value::Object(item) = item {
                            item.remove("visibility");
                        }
                    }
                }
                shown.insert(field, value);
            }
            out.insert(name.to_string(), serde_json::Value::Object(shown));
        }
        out
    }
}

impl serde::Serialize for PublicPassport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::json!({
            "product_id": self.product_id,
            "product_name": self.product_name,
            "gtin": self.gtin,
            "version": self.version,
            "updated_at": self.updated_at,
            "sections": self.sections(),
        });
        if let Some(lot) = &self.lot {
            value["lot"] = serde_json::Value::String(lot.clone());
        }
        value.serialize(serializer)
    }
}

fn row(out: &mut String, term: &str, value: &str) {
    let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(term), escape(value));
}

fn opt_row<T: AsRefStr>(out: &mut String, term: &str, value: &T) {
    if let Some(v) = value.text() {
        row(out, term, v);
    }
}

/// The text of an optional field, if it has one.
trait AsRefStr {
    fn text(&self) -> Option<&str>;
}

impl<R> AsRefStr for crate::http::input::Optional<crate::http::input::Text<R>> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(|t| t.get())
    }
}

fn percent(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    format!("{rounded} %")
}

/// A link when `url` is an `https` link the passport rules accept, else
/// the title alone.
fn link(out: &mut String, title: &str, url: &str) {
    if url.starts_with("https://") && HttpsUrl::parse("url", url).is_ok() {
        let _ = write!(
            out,
            "<li><a href=\"{}\" rel=\"noopener noreferrer nofollow\">{}</a></li>",
            escape(url),
            escape(title)
        );
    } else {
        let _ = write!(out, "<li>{}</li>", escape(title));
    }
}

fn documents(out: &mut String, heading: &str, section: &DocumentsSection) {
    // Only the public items are left.
    if section.items.0.is_empty() {
        return;
    }
    let _ = write!(out, "<h3>{}</h3><ul>", escape(heading));
    for d in &section.items {
        link(out, d.title.as_str(), d.url.as_str());
    }
    out.push_str("</ul>");
}

/// Opens a `<dl>` under a heading for a section with public fields, runs
/// `rows` (restricted fields are empty by now), and keeps the heading only
/// when some row was written.
fn block(
    out: &mut String,
    heading: &str,
    section: &dyn PublicSection,
    rows: impl FnOnce(&mut String),
) {
    if section.public_fields().is_empty() {
        return;
    }
    let mut inner = String::new();
    rows(&mut inner);
    if !inner.is_empty() {
        let _ = write!(out, "<h3>{}</h3><dl>{inner}</dl>", escape(heading));
    }
}

/// The passport as an HTML `<section>` for the scan page: its public
/// fields, every value escaped, links only when they are `https`.
pub fn render_public_html(p: &PublicPassport) -> String {
    let d = &p.data;
    let mut out = String::from("<section class=\"passport\"><h2>Product passport</h2>");
    let mut meta = format!(
        "Version {}, updated {}",
        p.version,
        p.updated_at.format("%Y-%m-%d")
    );
    if let Some(lot) = &p.lot {
        let _ = write!(meta, ", for lot {lot}");
    }
    let _ = write!(out, "<p class=\"muted\">{}.</p>", escape(&meta));
    let mut body = String::new();
    block(&mut body, "Identification", &*d.identification, |o| {
        row(o, "GTIN", &p.gtin);
        opt_row(o, "Product identifier", &d.identification.unique_product_id);
        opt_row(o, "Commodity code", &d.identification.commodity_code);
    });
    documents(&mut body, "Compliance documents", &d.compliance_documents);
    documents(&mut body, "User manuals", &d.user_manuals);
    documents(&mut body, "Safety information", &d.safety_information);
    let m = &d.manufacturer;
    block(&mut body, "Manufacturer", &**m, |o| {
        opt_row(o, "Name", &m.name);
        opt_row(o, "Operator identifier", &m.operator_id);
        opt_row(o, "Contact", &m.contact);
        for f in &m.facility_ids {
            row(o, "Facility", f.as_str());
        }
    });
    let i = &d.importer;
    block(&mut body, "Importer", &**i, |o| {
        opt_row(o, "Name", &i.name);
        opt_row(o, "EORI", &i.eori);
        opt_row(o, "Contact", &i.contact);
    });
    let r = &d.responsible_operator;
    block(&mut body, "Responsible economic operator", &**r, |o| {
        opt_row(o, "Name", &r.name);
        opt_row(o, "Operator identifier", &r.operator_id);
        opt_row(o, "Contact", &r.contact);
    });
    let s = &d.substances_of_concern;
    block(&mut body, "Substances of concern", &**s, |o| {
        for sub in &s.items {
            let mut detail = Vec::new();
            if let Some(cas) = sub.cas_number.as_ref().and_then(|c| c.get()) {
                detail.push(format!("CAS {cas}"));
            }
            if let Some(c) = sub.concentration_percent.0 {
                detail.push(percent(c));
            }
            if let Some(l) = sub.location.as_ref().and_then(|l| l.get()) {
                detail.push(format!("in {l}"));
            }
            row(o, sub.name.as_str(), &detail.join(", "));
        }
    });
    let mats = &d.materials;
    block(&mut body, "Materials", &**mats, |o| {
        for mat in &mats.items {
            let mut detail = Vec::new();
            if let Some(share) = mat.share_percent.0 {
                detail.push(percent(share));
            }
            if let Some(rec) = mat.recycled_percent.0 {
                detail.push(format!("{} recycled", percent(rec)));
            }
            row(o, mat.name.as_str(), &detail.join(", "));
        }
    });
    block(&mut body, "Repair", &*d.repair, |o| {
        opt_row(o, "Instructions", &d.repair.instructions);
        opt_row(o, "Spare parts", &d.repair.spare_parts_availability);
    });
    block(&mut body, "Recycling", &*d.recycling, |o| {
        opt_row(o, "Instructions", &d.recycling.instructions);
        opt_row(o, "Recyclability", &d.recycling.recyclability);
    });
    if body.is_empty() {
        body.push_str(
            "<p class=\"muted\">The brand has not made the details of this passport public.</p>",
        );
    }
    out.push_str(&body);
    out.push_str("</section>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::input::{Optional, Text};
    use crate::passports::{DocumentLink, Material, Substance, Visibility};

    fn passport(data: PassportData) -> PublicPassport {
        PublicPassport {
            product_id: Uuid::nil(),
            product_name: "<b>Shoe</b>".into(),
            gtin: "09506000134352".into(),
            lot: Some("L<1>".into()),
            version: 3,
            updated_at: DateTime::from_timestamp(1_780_000_000, 0).unwrap(),
            data: data.public_only(),
        }
    }

    fn text<R>(s: &str) -> Text<R> {
        Text::new(s)
    }

    #[test]
    fn markup_in_values_is_escaped_and_only_https_links_are_links() {
        let mut d = PassportData::default();
        d.identification.visibility = Visibility::Public;
        d.identification.unique_product_id = Optional(Some(text("<script>alert(1)</script>")));
        d.user_manuals.visibility = Visibility::Public;
        *d.user_manuals.items = vec![
            DocumentLink {
                title: text("Manual \"quoted\" & <i>"),
                url: text("https://example.com/m.pdf?a=1&b='x'"),
                visibility: Optional(None),
            },
            DocumentLink {
                title: text("Sneaky"),
                url: text("javascript:alert(1)"),
                visibility: Optional(None),
            },
            DocumentLink {
                title: text("Breakout"),
                url: text("https://x.com\"><script>"),
                visibility: Optional(None),
            },
        ];
        d.materials.visibility = Visibility::Public;
        *d.materials.items = vec![Material {
            name: text("<img src=x onerror=alert(1)>"),
            share_percent: Optional(Some(60.0)),
            recycled_percent: Optional(Some(12.5)),
            visibility: Optional(None),
        }];
        d.substances_of_concern.visibility = Visibility::Public;
        *d.substances_of_concern.items = vec![Substance {
            name: text("Lead"),
            cas_number: Optional(Some(text("7439-92-1"))),
            concentration_percent: Optional(Some(0.1)),
            location: Optional(Some(text("solder <joints>"))),
            visibility: Optional(None),
        }];
        d.repair.visibility = Visibility::Public;
        d.repair.instructions = Optional(Some(text("Step 1'\n</section><h1>x</h1>")));
        let html = render_public_html(&passport(d));
        assert!(html.starts_with("<section") && html.ends_with("</section>"));
        assert_eq!(html.matches("<section").count(), 1, "{html}");
        assert_eq!(html.matches("</section>").count(), 1, "{html}");
        for raw in ["<script", "<img", "<i>", "<joints>", "<h1>", "javascript:"] {
            assert!(!html.contains(raw), "{raw} in {html}");
        }
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains(
            "<a href=\"https://example.com/m.pdf?a=1&amp;b=&#39;x&#39;\" rel=\"noopener noreferrer nofollow\">Manual &quot;quoted&quot; &amp; &lt;i&gt;</a>"
        ));
        assert!(html.contains("<li>Sneaky</li>"), "{html}");
        assert!(html.contains("<li>Breakout</li>"), "{html}");
        assert!(html.contains("for lot L&lt;1&gt;"));
        assert!(html.contains("CAS 7439-92-1, 0.1 %, in solder &lt;joints&gt;"));
        assert!(html.contains("60 %, 12.5 % recycled"));
        assert_eq!(html.matches("<a ").count(), 1);
    }

    #[test]
    fn restricted_sections_are_neither_shown_nor_serialized() {
        let mut d = PassportData::default();
        d.importer.visibility = Visibility::Restricted;
        d.importer.name = Optional(Some(text("Secret Importer")));
        d.importer.eori = Optional(Some(text("DE123")));
        d.recycling.visibility = Visibility::Public;
        d.recycling.recyclability = Optional(Some(text("Fully recyclable")));
        let p = passport(d);
        let html = render_public_html(&p);
        assert!(!html.contains("Secret") && !html.contains("DE123"));
        assert!(html.contains("Fully recyclable"));
        let json = serde_json::to_value(&p).unwrap();
        assert!(!json.to_string().contains("Secret"), "{json}");
        assert_eq!(
            json["sections"],
            serde_json::json!({"recycling": {"recyclability": "Fully recyclable"}})
        );
        assert_eq!(json["lot"], "L<1>");
        assert_eq!(json["version"], 3);

        let nothing = render_public_html(&passport(PassportData::default()));
        assert!(nothing.contains("not made the details of this passport public"));
    }

    #[test]
    fn each_field_is_shown_by_its_own_visibility_or_its_sections() {
        let mut d = PassportData::default();
        // A public section with restricted fields.
        d.manufacturer.visibility = Visibility::Public;
        d.manufacturer.name = Optional(Some(text("Shoe Works")));
        d.manufacturer.contact = Optional(Some(text("secret@example.com")));
        d.manufacturer
            .field_visibility
            .set("contact", Visibility::Restricted);
        *d.manufacturer.facility_ids = vec![text("FAC-SECRET")];
        d.manufacturer
            .field_visibility
            .set("facility_ids", Visibility::Restricted);
        // A restricted section with a public field.
        d.importer.name = Optional(Some(text("Hidden Importer")));
        d.importer.eori = Optional(Some(text("DE123456789")));
        d.importer.field_visibility.set("eori", Visibility::Public);
        // A restricted list with a public item, a public one with a
        // restricted item.
        *d.materials.items = vec![
            Material {
                name: text("Open cotton"),
                share_percent: Optional(None),
                recycled_percent: Optional(None),
                visibility: Optional(Some(Visibility::Public)),
            },
            Material {
                name: text("Hidden blend"),
                share_percent: Optional(None),
                recycled_percent: Optional(None),
                visibility: Optional(None),
            },
        ];
        d.user_manuals.visibility = Visibility::Public;
        *d.user_manuals.items = vec![
            DocumentLink {
                title: text("Open manual"),
                url: text("https://example.com/open.pdf"),
                visibility: Optional(None),
            },
            DocumentLink {
                title: text("Internal manual"),
                url: text("https://example.com/internal.pdf"),
                visibility: Optional(Some(Visibility::Restricted)),
            },
        ];
        let p = passport(d);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(
            json["sections"],
            serde_json::json!({
                "manufacturer": {"name": "Shoe Works"},
                "importer": {"eori": "DE123456789"},
                "materials": {"items": [{"name": "Open cotton"}]},
                "user_manuals": {"items": [{"title": "Open manual", "url": "https://example.com/open.pdf"}]},
            })
        );
        let html = render_public_html(&p);
        for shown in ["Shoe Works", "DE123456789", "Open cotton", "Open manual"] {
            assert!(html.contains(shown), "{shown} in {html}");
        }
        for hidden in [
            "secret@",
            "FAC-SECRET",
            "Hidden",
            "Internal",
            "internal.pdf",
        ] {
            assert!(!html.contains(hidden), "{hidden} in {html}");
            assert!(!json.to_string().contains(hidden), "{hidden} in {json}");
        }
        assert!(html.contains("<h3>Importer</h3>"), "{html}");
        assert!(!html.contains("Identification"), "{html}");
    }
}

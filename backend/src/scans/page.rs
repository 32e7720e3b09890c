//! The scan page: small, server-rendered HTML for a phone, no script. Every
//! value that came from a brand or a consumer is escaped here, and the
//! page's Content-Security-Policy allows nothing but its own style.

use std::fmt::Write as _;
use std::sync::LazyLock;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::Verdict;
use crate::http::html::escape;
use crate::lots::LotStatus;

/// What the page shows of a resolved code.
pub struct ScanView<'a> {
    pub verdict: Verdict,
    pub product_name: Option<&'a str>,
    pub gtin: &'a str,
    pub skuid: Option<&'a str>,
    pub lot: Option<&'a str>,
    pub manufactured_on: Option<String>,
    pub expires_on: Option<String>,
    pub expired: bool,
    /// The status of the code's lot (a recalled or held lot is warned of).
    pub lot_status: Option<LotStatus>,
    /// The manufacturing licence number (Schedule H2), from a batch update.
    pub licence_number: Option<&'a str>,
    /// The manufacturer's name and address (the product's company).
    pub manufacturer: Option<(&'a str, &'a str)>,
    pub scans_before: i64,
    /// The same consumer scanned this code before.
    pub seen_before: bool,
    /// The token of the review form (a person's scan of a real code).
    pub review_token: Option<String>,
    /// The product's visible reviews: average, count, the newest few.
    pub reviews: Option<ProductReviews>,
    /// The public part of the product's (or lot's) passport, as HTML made
    /// by `passports::render_public_html` (every value escaped there).
    pub passport_html: Option<String>,
    /// The product's journey as the public sees it: (date, step), oldest
    /// first; where it happened is the brand's business.
    pub journey: Vec<(String, String)>,
    /// The brand whose product it is: its display name and its logo's URL.
    pub brand: Option<Brand>,
    /// The URL of the product's first image, if it has one.
    pub product_image_url: Option<String>,
}

/// The brand as its scan page shows it (issue 21).
#[derive(Clone, Debug)]
pub struct Brand {
    /// The organisation's display name (the staff greeting's).
    pub name: String,
    /// `/r/brand/{gtin}/logo/{id}.{ext}`, when it has a logo.
    pub logo_url: Option<String>,
}

/// A product's visible reviews as its scan page shows them.
pub struct ProductReviews {
    pub average: Option<f64>,
    pub count: i64,
    pub newest: Vec<(i16, String)>,
}

const STYLE: &str = "\
*{box-sizing:border-box}\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1c2430;background:#f4f6f9}\
main{max-width:34rem;margin:0 auto;padding:1rem}\
.verdict{border-radius:12px;padding:1.25rem;margin:0 0 1rem;color:#fff}\
.verdict h1{margin:0 0 .25rem;font-size:1.5rem}\
.verdict p{margin:0}\
.genuine{background:#1f7a3d}\
.suspicious{background:#a35a00}\
.not_recognised,.bad{background:#b3261e}\
section{background:#fff;border-radius:12px;padding:1rem 1.25rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}\
h2{font-size:1.1rem;margin:0 0 .5rem}\
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}\
dt{color:#5a6472}\
dd{margin:0;overflow-wrap:anywhere}\
.warn{background:#fff4e5;border:1px solid #f0b35a;border-radius:8px;padding:.5rem .75rem;margin:.75rem 0 0}\
.muted{color:#5a6472;font-size:.9rem}\
label{display:block;margin:.5rem 0 .25rem;font-weight:600}\
select,textarea{width:100%;font:inherit;padding:.5rem;border:1px solid #b8c0cc;border-radius:8px}\
button{margin-top:.75rem;font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;border-radius:8px;background:#1c4fa0;color:#fff}\
blockquote{margin:.5rem 0;padding:.5rem .75rem;border-left:3px solid #d0d6de;white-space:pre-wrap;overflow-wrap:anywhere}\
.ok{background:#1f7a3d}\
footer{text-align:center;color:#5a6472;font-size:.8rem;padding:1rem}\
.brand{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem}\
.brand img{max-height:3rem;max-width:8rem;object-fit:contain}\
.brand p{margin:0;font-weight:600;font-size:1.1rem;overflow-wrap:anywhere}\
.photo{display:block;max-width:100%;max-height:16rem;margin:0 auto .75rem;border-radius:8px;object-fit:contain}";

/// The page's CSP: its one inline style (by hash), its one script (from
/// this origin, `/r/scan.js`) which may call this origin only.
pub static CSP: LazyLock<String> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE.as_bytes()));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; script-src 'self'; connect-src 'self'; \
         img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
});

/// The scan page's one script. Dates: the server writes them as
/// `<time datetime="YYYY-MM-DD">` (ISO, readable without script) and the
/// script shows them in the browser's language, as the staff pages do.
/// "Share my place" asks the browser for its position only when the person
/// presses the button, and sends it with the scan's token. Without script
/// the page works, minus that button.
const SCRIPT: &str = r#"(function () {
  if (!window.Intl || !Intl.DateTimeFormat) return;
  var format;
  try {
    format = new Intl.DateTimeFormat(navigator.languages || navigator.language,
      { dateStyle: 'medium', timeZone: 'UTC' });
  } catch (e) { return; }
  var times = document.querySelectorAll('time[datetime]');
  for (var i = 0; i < times.length; i++) {
    var value = times[i].getAttribute('datetime');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
    var day = new Date(value + 'T00:00:00Z');
    if (!isNaN(day.getTime())) times[i].textContent = format.format(day);
  }
})();
(function () {
  var button = document.getElementById('share-place');
  if (!button) return;
  var status = document.getElementById('place-status');
  if (!navigator.geolocation || !window.fetch) { button.hidden = true; return; }
  button.hidden = false;
  button.addEventListener('click', function () {
    button.disabled = true;
    status.textContent = 'Asking your browser for your place…';
    navigator.geolocation.getCurrentPosition(function (pos) {
      fetch('/r/locate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: button.getAttribute('data-token'), lat: pos.coords.latitude,
          lon: pos.coords.longitude, accuracy: pos.coords.accuracy })
      }).then(function (r) { return r.json(); })
        .then(function (a) { status.textContent = a.message || a.error || 'Done.'; })
        .catch(function () { status.textContent = 'Your place could not be sent. Please try again.'; button.disabled = false; });
    }, function () {
      status.textContent = 'No place was shared.';
      button.disabled = false;
    }, { maximumAge: 600000, timeout: 15000 });
  });
})();
"#;

/// `GET /r/scan.js`.
#[poem::handler]
pub fn script() -> poem::Response {
    poem::Response::builder()
        .content_type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .body(SCRIPT)
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <title>{}</title><style>{STYLE}</style></head><body><main>{body}</main>\
         <footer>Checked by brandops · Places: <a href=\"https://www.geonames.org/\">GeoNames</a> (CC BY 4.0)</footer>\
         <script src=\"/r/scan.js\" defer></script></body></html>",
        escape(title)
    )
}

fn row(out: &mut String, term: &str, value: &str) {
    let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(term), escape(value));
}

/// A date (`YYYY-MM-DD`) as a `<time>` that the page's script shows in the
/// browser's language.
fn date(iso: &str) -> String {
    format!("<time datetime=\"{0}\">{0}</time>", escape(iso))
}

fn date_row(out: &mut String, term: &str, iso: &str) {
    let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(term), date(iso));
}

/// The page for a code the resolver could read.
pub fn scan_page(view: &ScanView<'_>) -> String {
    let (title, line) = match view.verdict {
        Verdict::Genuine => (
            "Genuine product",
            "This code was issued by the brand for this pack.",
        ),
        Verdict::Suspicious => (
            "Check this pack",
            "This code is genuine, but it has been scanned by more people, or in places farther apart, than one pack should be. It may have been copied: buy from a trusted seller and contact the brand if in doubt.",
        ),
        Verdict::NotRecognised => (
            "Not recognised",
            "The brand did not issue this code. This pack may be counterfeit: do not use it, and report it to the brand or the seller.",
        ),
    };
    let mut body = String::new();
    if view.verdict != Verdict::NotRecognised
        && let Some(brand) = &view.brand
    {
        brand_header(&mut body, brand);
    }
    if view.verdict != Verdict::NotRecognised
        && let Some((heading, warning)) = view.lot_status.and_then(lot_warning)
    {
        let _ = write!(
            body,
            "<div class=\"verdict bad\" role=\"alert\"><h2>{}</h2><p>{}</p></div>",
            escape(heading),
            escape(warning)
        );
    }
    let _ = write!(
        body,
        "<div class=\"verdict {}\" role=\"status\"><h1>{}</h1><p>{}</p></div>",
        view.verdict.as_str(),
        escape(title),
        escape(line)
    );
    if view.verdict != Verdict::NotRecognised {
        body.push_str("<section><h2>Product</h2>");
        if let Some(src) = &view.product_image_url {
            let _ = write!(
                body,
                "<img class=\"photo\" src=\"{}\" alt=\"{}\">",
                escape(src),
                escape(&format!(
                    "Photo of {}",
                    view.product_name.unwrap_or("the product")
                ))
            );
        }
        body.push_str("<dl>");
        if let Some(name) = view.product_name {
            row(&mut body, "Name", name);
        }
        row(&mut body, "GTIN", view.gtin);
        if let Some(sku) = view.skuid {
            row(&mut body, "SKU", sku);
        }
        if let Some(lot) = view.lot {
            row(&mut body, "Lot", lot);
        }
        if let Some(made) = &view.manufactured_on {
            date_row(&mut body, "Made on", made);
        }
        if let Some(expiry) = &view.expires_on {
            date_row(&mut body, "Expires on", expiry);
        }
        if let Some(licence) = view.licence_number {
            row(&mut body, "Mfg. licence no.", licence);
        }
        if let Some((name, address)) = view.manufacturer {
            row(&mut body, "Manufacturer", name);
            row(&mut body, "Manufacturer's address", address);
        }
        body.push_str("</dl>");
        if view.expired {
            let _ = write!(
                body,
                "<p class=\"warn\" role=\"alert\"><strong>Expired.</strong> This pack expired on {}. Do not use it.</p>",
                date(view.expires_on.as_deref().unwrap_or_default())
            );
        }
        body.push_str("</section>");
        let scans = match view.scans_before {
            _ if view.seen_before => "You have scanned this pack before.".to_string(),
            0 => "This is the first time this code has been scanned.".to_string(),
            1 => "This code has been scanned once before.".to_string(),
            n => format!("This code has been scanned {n} times before."),
        };
        let _ = write!(body, "<section><p>{}</p></section>", escape(&scans));
        match &view.passport_html {
            Some(passport) => body.push_str(passport),
            None => body.push_str(
                "<section><h2>Product passport</h2><p class=\"muted\">The brand has not published a digital product passport for this product yet.</p></section>",
            ),
        }
        if !view.journey.is_empty() {
            body.push_str("<section><h2>Journey</h2><dl>");
            for (day, step) in &view.journey {
                let _ = write!(body, "<dt>{}</dt><dd>{}</dd>", date(day), escape(step));
            }
            body.push_str("</dl></section>");
        }
        reviews_section(&mut body, view);
        if let Some(token) = &view.review_token {
            let _ = write!(
                body,
                "<section><h2>Help fight counterfeits</h2><p class=\"muted\">Share where you bought or scanned this pack. \
                 Your browser asks first; only the town is kept.</p>\
                 <button type=\"button\" id=\"share-place\" data-token=\"{}\" hidden>Share my place</button>\
                 <p id=\"place-status\" role=\"status\"></p></section>",
                escape(token)
            );
        }
    } else {
        body.push_str("<section><dl>");
        row(&mut body, "GTIN", view.gtin);
        body.push_str("</dl></section>");
    }
    page(title, &body)
}

/// Whose product it is: the brand's logo (if any) and its name, as text.
fn brand_header(body: &mut String, brand: &Brand) {
    body.push_str("<header class=\"brand\">");
    if let Some(src) = &brand.logo_url {
        let _ = write!(
            body,
            "<img src=\"{}\" alt=\"{}\">",
            escape(src),
            escape(&format!("{} logo", brand.name))
        );
    }
    let _ = write!(
        body,
        "<p><span class=\"muted\">A product of</span> {}</p></header>",
        escape(&brand.name)
    );
}

fn stars(rating: i16) -> String {
    let full = usize::try_from(rating.clamp(0, 5)).unwrap_or(0);
    format!("{}{}", "★".repeat(full), "☆".repeat(5 - full))
}

fn reviews_section(body: &mut String, view: &ScanView<'_>) {
    body.push_str("<section><h2>Reviews</h2>");
    if let Some(reviews) = &view.reviews {
        match reviews.average {
            Some(avg) if reviews.count > 0 => {
                let _ = write!(
                    body,
                    "<p>Rated {avg:.1} out of 5 by {} {}.</p>",
                    reviews.count,
                    if reviews.count == 1 {
                        "buyer"
                    } else {
                        "buyers"
                    }
                );
            }
            _ => body.push_str("<p class=\"muted\">No reviews yet.</p>"),
        }
        for (rating, text) in &reviews.newest {
            let _ = write!(
                body,
                "<blockquote><span aria-label=\"{rating} out of 5\">{}</span><br>{}</blockquote>",
                stars(*rating),
                escape(text)
            );
        }
    }
    if let Some(token) = &view.review_token {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/r/review\"><input type=\"hidden\" name=\"token\" value=\"{}\">\
             <label for=\"rating\">Your rating</label><select id=\"rating\" name=\"rating\" required>\
             <option value=\"\">Choose…</option><option value=\"5\">5 – excellent</option><option value=\"4\">4 – good</option>\
             <option value=\"3\">3 – fair</option><option value=\"2\">2 – poor</option><option value=\"1\">1 – bad</option></select>\
             <label for=\"text\">Your review (optional)</label><textarea id=\"text\" name=\"text\" rows=\"3\" maxlength=\"{}\"></textarea>\
             <button type=\"submit\">Send review</button></form>",
            escape(token),
            crate::reviews::MAX_TEXT
        );
    }
    body.push_str("</section>");
}

/// What the page of a Digital Link with no serial shows: the product (and
/// the lot the link names), never a verdict.
pub struct ProductView<'a> {
    pub product_name: &'a str,
    pub gtin: &'a str,
    pub skuid: &'a str,
    pub lot: Option<&'a str>,
    /// As in [`ScanView::passport_html`].
    pub passport_html: Option<String>,
}

/// The page for a link that names a product, or a lot, but no pack: the
/// product's facts and passport, and why there is no verdict.
pub fn product_page(view: &ProductView<'_>) -> String {
    let mut body = format!(
        "<div class=\"verdict ok\"><h1>{}</h1><p>Product information</p></div><section><dl>",
        escape(view.product_name)
    );
    row(&mut body, "GTIN", view.gtin);
    row(&mut body, "SKU", view.skuid);
    if let Some(lot) = view.lot {
        row(&mut body, "Lot", lot);
    }
    body.push_str(
        "</dl><p class=\"muted\">This link names the product, not one pack (it has no serial number), \
         so it cannot say whether a pack is genuine. Scan the code on the pack itself for that.</p></section>",
    );
    match &view.passport_html {
        Some(passport) => body.push_str(passport),
        None => body.push_str(
            "<section><h2>Product passport</h2><p class=\"muted\">The brand has not published a digital product passport for this product yet.</p></section>",
        ),
    }
    page(view.product_name, &body)
}

/// A product's public passport on a page of its own (`linkType=gs1:dpp`).
pub fn passport_page(product_name: &str, passport_html: &str) -> String {
    let body = format!(
        "<div class=\"verdict ok\"><h1>{}</h1><p>Digital product passport</p></div>{passport_html}",
        escape(product_name)
    );
    page(&format!("{product_name}: product passport"), &body)
}

/// A short page that tells the person how something they sent went, with
/// a link back to the product's page (`back`, a path of this site) when
/// there is one.
pub fn notice_page(title: &str, message: &str, ok: bool, back: Option<&str>) -> String {
    let mut body = format!(
        "<div class=\"verdict {}\" role=\"status\"><h1>{}</h1><p>{}</p></div>",
        if ok { "ok" } else { "bad" },
        escape(title),
        escape(message)
    );
    if let Some(back) = back {
        let _ = write!(
            body,
            "<section><p><a href=\"{}\">Back to the product’s page</a></p></section>",
            escape(back)
        );
    }
    page(title, &body)
}

/// The page for a link the resolver cannot read (400) or will not answer
/// now (429).
pub fn problem_page(title: &str, message: &str) -> String {
    let body = format!(
        "<div class=\"verdict bad\" role=\"alert\"><h1>{}</h1><p>{}</p></div>",
        escape(title),
        escape(message)
    );
    page(title, &body)
}

/// The scan page's warning for a lot in `status`: a heading and what to
/// do; `None` when the lot may be used.
pub fn lot_warning(status: LotStatus) -> Option<(&'static str, &'static str)> {
    match status {
        LotStatus::Recalled => Some(("Recalled", "This product has been recalled. Do not use it.")),
        LotStatus::Held => Some((
            "On hold",
            "This batch is on hold by the manufacturer. Do not use it until further notice.",
        )),
        LotStatus::Quarantine | LotStatus::Released | LotStatus::Rejected => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        let view = ScanView {
            verdict: Verdict::Genuine,
            product_name: Some("<script>alert(1)</script>"),
            gtin: "09506000134352",
            skuid: Some("a\"b'c&d"),
            lot: None,
            manufactured_on: None,
            expires_on: None,
            expired: false,
            lot_status: None,
            licence_number: None,
            manufacturer: None,
            scans_before: 0,
            seen_before: false,
            review_token: Some("t\"><script>".into()),
            reviews: Some(ProductReviews {
                average: Some(4.5),
                count: 2,
                newest: vec![(5, "<img src=x onerror=alert(1)>".into())],
            }),
            passport_html: None,
            journey: vec![("2026-11-20".into(), "Shipped <b>".into())],
            brand: None,
            product_image_url: None,
        };
        let html = scan_page(&view);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("a&quot;b&#39;c&amp;d"));
        assert!(!html.contains("<img"), "a review's markup is text");
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("value=\"t&quot;&gt;&lt;script&gt;\""));
        assert!(html.contains("Rated 4.5 out of 5 by 2 buyers."));
        assert!(html.contains("Shipped &lt;b&gt;"));
        // Dates are machine-readable; the page's script shows them in the
        // browser's language.
        assert!(html.contains("<dt><time datetime=\"2026-11-20\">2026-11-20</time></dt>"));
        assert!(SCRIPT.contains("time[datetime]"));
        assert!(CSP.contains("style-src 'sha256-"));
    }

    fn identity_view(verdict: Verdict, brand: Option<Brand>, image: Option<&str>) -> String {
        scan_page(&ScanView {
            verdict,
            product_name: Some("Rice \"<b>"),
            gtin: "09506000134352",
            skuid: Some("S1"),
            lot: None,
            manufactured_on: None,
            expires_on: None,
            expired: false,
            lot_status: None,
            licence_number: None,
            manufacturer: None,
            scans_before: 0,
            seen_before: false,
            review_token: None,
            reviews: None,
            passport_html: None,
            journey: Vec::new(),
            brand,
            product_image_url: image.map(str::to_string),
        })
    }

    #[test]
    fn the_brand_and_the_product_image_are_shown_escaped() {
        let brand = Brand {
            name: "<img src=x onerror=alert(1)> & Co".into(),
            logo_url: Some("/r/brand/09506000134352/logo/x.png".into()),
        };
        let html = identity_view(
            Verdict::Genuine,
            Some(brand.clone()),
            Some("/r/brand/09506000134352/image/y.png"),
        );
        assert!(
            html.contains("A product of</span> &lt;img src=x onerror=alert(1)&gt; &amp; Co</p>")
        );
        assert!(html.contains(
            "<img src=\"/r/brand/09506000134352/logo/x.png\" alt=\"&lt;img src=x onerror=alert(1)&gt; &amp; Co logo\">"
        ));
        assert!(html.contains(
            "<img class=\"photo\" src=\"/r/brand/09506000134352/image/y.png\" alt=\"Photo of Rice &quot;&lt;b&gt;\">"
        ));
        assert_eq!(html.matches("<img").count(), 2);
        // No logo, no image: the name alone, and no broken image.
        let plain = identity_view(
            Verdict::Genuine,
            Some(Brand {
                logo_url: None,
                ..brand.clone()
            }),
            None,
        );
        assert!(plain.contains("A product of</span>"));
        assert!(!plain.contains("<img"));
        // A code the brand did not issue is not the brand's: no identity.
        let fake = identity_view(Verdict::NotRecognised, Some(brand), Some("/x.png"));
        assert!(!fake.contains("A product of") && !fake.contains("<img"));
    }

    #[test]
    fn the_product_page_escapes_markup_and_gives_no_verdict() {
        let html = product_page(&ProductView {
            product_name: "<b>Rice</b>",
            gtin: "09506000134352",
            skuid: "S&1",
            lot: Some("<L1>"),
            passport_html: None,
        });
        assert!(html.contains("&lt;b&gt;Rice&lt;/b&gt;"));
        assert!(html.contains("S&amp;1") && html.contains("&lt;L1&gt;"));
        assert!(!html.contains("<b>Rice"));
        assert!(!html.contains("Genuine product") && !html.contains("Not recognised"));
        assert!(html.contains("cannot say whether a pack is genuine"));
    }

    #[test]
    fn a_recalled_or_held_lot_is_warned_of_and_others_are_not() {
        let page_with = |status| {
            scan_page(&ScanView {
                verdict: Verdict::Genuine,
                product_name: Some("Aspirin"),
                gtin: "09506000134352",
                skuid: None,
                lot: Some("L1"),
                manufactured_on: None,
                expires_on: None,
                expired: false,
                lot_status: status,
                licence_number: None,
                manufacturer: None,
                scans_before: 0,
                seen_before: false,
                review_token: None,
                reviews: None,
                passport_html: None,
                journey: Vec::new(),
                brand: None,
                product_image_url: None,
            })
        };
        let recalled = page_with(Some(LotStatus::Recalled));
        assert!(recalled.contains(
            "<div class=\"verdict bad\" role=\"alert\"><h2>Recalled</h2><p>This product has been recalled. Do not use it.</p></div>"
        ));
        let held = page_with(Some(LotStatus::Held));
        assert!(held.contains("role=\"alert\"><h2>On hold</h2><p>This batch is on hold by the manufacturer. Do not use it until further notice.</p>"));
        for quiet in [None, Some(LotStatus::Released), Some(LotStatus::Quarantine)] {
            let html = page_with(quiet);
            assert!(!html.contains("role=\"alert\""), "{quiet:?}");
            assert!(!html.contains("Do not use it"), "{quiet:?}");
        }
    }
}

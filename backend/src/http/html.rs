//! HTML for the few pages the server renders itself (the scan page, a
//! passport's public section): text made safe to put in an element's content
//! or a quoted attribute value.

/// Escapes text for HTML content and (double- or single-quoted) attribute
/// values: `&`, `<`, `>`, `"` and `'` become entities; everything else is
/// kept as it is.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_the_five_markup_characters() {
        assert_eq!(escape("<"), "&lt;");
        assert_eq!(escape(">"), "&gt;");
        assert_eq!(escape("&"), "&amp;");
        assert_eq!(escape("\""), "&quot;");
        assert_eq!(escape("'"), "&#39;");
        assert_eq!(
            escape("<script>alert('x')</script>"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
        );
        assert_eq!(escape("\" onmouseover=\"x"), "&quot; onmouseover=&quot;x");
    }

    #[test]
    fn escapes_once_and_keeps_everything_else() {
        // An entity in the text is text: its `&` is escaped again.
        assert_eq!(escape("&amp;"), "&amp;amp;");
        assert_eq!(escape("AT&T 5 > 3"), "AT&amp;T 5 &gt; 3");
        assert_eq!(escape(""), "");
        assert_eq!(
            escape("Crème brûlée 100% / ½ € \n\t"),
            "Crème brûlée 100% / ½ € \n\t"
        );
    }
}

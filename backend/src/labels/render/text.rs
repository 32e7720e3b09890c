//! Text handling shared by all outputs: the bundled font, the character
//! repertoire (Windows-1252 / PDF WinAnsiEncoding, what base-14 Helvetica
//! can show), width measurement and truncation with an ellipsis.

use ab_glyph::{Font, FontRef};

use super::RenderError;

/// Liberation Sans Regular (SIL Open Font License 1.1, see
/// `assets/fonts/LiberationSans-OFL-1.1.txt`). Its advance widths match
/// Helvetica, so measuring with it gives the PDF layout as well.
///
/// This is the only place that references the font file; adjust the path
/// when moving the module.
pub(crate) const FONT: &[u8] = include_bytes!("../../../assets/fonts/LiberationSans-Regular.ttf");

/// Millimetres per typographic point.
pub(crate) const MM_PER_PT: f32 = 25.4 / 72.0;

/// Invisible unless a line breaks there, which labels never do: dropped.
const SOFT_HYPHEN: char = '\u{AD}';

/// The ellipsis appended to shortened text.
pub(crate) const ELLIPSIS: char = '…';

/// Maps a character to its Windows-1252 (WinAnsiEncoding) byte, if it has one.
pub(crate) fn winansi_byte(c: char) -> Option<u8> {
    let byte = match c {
        ' '..='~' => c as u8,
        '\u{A0}'..='\u{FF}' => c as u8,
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8A,
        '‹' => 0x8B,
        'Œ' => 0x8C,
        'Ž' => 0x8E,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9A,
        '›' => 0x9B,
        'œ' => 0x9C,
        'ž' => 0x9E,
        'Ÿ' => 0x9F,
        _ => return None,
    };
    Some(byte)
}

/// Makes text printable with the label fonts: whitespace (tabs, newlines,
/// no-break spaces) becomes a plain space, soft hyphens are dropped,
/// characters outside Windows-1252 (emoji, CJK, combining marks, control
/// characters) become `?`, and the ends are trimmed.
pub(crate) fn printable(text: &str) -> String {
    text.trim()
        .chars()
        .filter(|&c| c != SOFT_HYPHEN)
        .map(|c| {
            if c.is_whitespace() {
                ' '
            } else if winansi_byte(c).is_some() {
                c
            } else {
                '?'
            }
        })
        .collect()
}

/// Encodes text that went through [`printable`] as WinAnsi bytes for a PDF
/// string (anything unexpected still becomes `?`).
pub(crate) fn to_winansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| winansi_byte(c).unwrap_or(b'?'))
        .collect()
}

/// Width measurement with the bundled font.
pub(crate) struct Metrics {
    font: FontRef<'static>,
    units_per_em: f32,
}

impl Metrics {
    /// Loads the bundled font.
    pub fn new() -> Result<Self, RenderError> {
        let font = FontRef::try_from_slice(FONT).map_err(|_| RenderError::Font)?;
        let units_per_em = font.units_per_em().ok_or(RenderError::Font)?;
        Ok(Self { font, units_per_em })
    }

    /// The font itself, for rasterizing.
    pub fn font(&self) -> &FontRef<'static> {
        &self.font
    }

    /// Font units per em.
    pub fn units_per_em(&self) -> f32 {
        self.units_per_em
    }

    /// Advance width of one character in em.
    fn advance_em(&self, c: char) -> f32 {
        self.font.h_advance_unscaled(self.font.glyph_id(c)) / self.units_per_em
    }

    /// Width of `text` in millimetres at `size_pt` (no kerning, like a PDF
    /// `Tj` without adjustments).
    pub fn width_mm(&self, text: &str, size_pt: f32) -> f32 {
        text.chars().map(|c| self.advance_em(c)).sum::<f32>() * size_pt * MM_PER_PT
    }

    /// Shortens `text` so that it is at most `max_mm` wide, ending it with an
    /// ellipsis when something was cut. Returns an empty string if not even
    /// the ellipsis fits.
    pub fn fit(&self, text: &str, size_pt: f32, max_mm: f32) -> String {
        if self.width_mm(text, size_pt) <= max_mm {
            return text.to_owned();
        }
        let scale = size_pt * MM_PER_PT;
        let budget = max_mm - self.advance_em(ELLIPSIS) * scale;
        if budget < 0.0 {
            return String::new();
        }
        let mut used = 0.0;
        let mut end = 0;
        for (index, c) in text.char_indices() {
            used += self.advance_em(c) * scale;
            if used > budget {
                break;
            }
            end = index + c.len_utf8();
        }
        let mut out = text[..end].trim_end().to_owned();
        out.push(ELLIPSIS);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_replaces_what_helvetica_cannot_show() {
        assert_eq!(
            printable("  Café\tCrème 🍷 <b>\u{7}x "),
            "Café Crème ? <b>?x"
        );
        assert_eq!(printable("日本"), "??");
        assert_eq!(printable("Wein\u{AD}gut"), "Weingut");
        assert_eq!(printable("€ – “ok”"), "€ – “ok”");
    }

    #[test]
    fn winansi_encoding() {
        assert_eq!(to_winansi("A€…é"), vec![b'A', 0x80, 0x85, 0xE9]);
        assert_eq!(to_winansi("🍷"), vec![b'?']);
    }

    #[test]
    fn widths_match_helvetica() {
        let m = Metrics::new().expect("font");
        // Helvetica AFM: 'H' = 722, 'i' = 222, space = 278 (per 1000 em).
        let at_1000pt = |s: &str| m.width_mm(s, 1000.0) / MM_PER_PT;
        assert!((at_1000pt("H") - 722.0).abs() < 1.0);
        assert!((at_1000pt("i") - 222.0).abs() < 1.0);
        assert!((at_1000pt(" ") - 278.0).abs() < 1.0);
    }

    #[test]
    fn fit_truncates_with_ellipsis() {
        let m = Metrics::new().expect("font");
        let long = "A very long product name that will not fit";
        let fitted = m.fit(long, 8.0, 20.0);
        assert!(fitted.ends_with(ELLIPSIS), "{fitted}");
        assert!(m.width_mm(&fitted, 8.0) <= 20.0);
        assert!(long.starts_with(fitted.trim_end_matches(ELLIPSIS)));
        assert_eq!(m.fit("short", 8.0, 20.0), "short");
        assert_eq!(m.fit("anything", 8.0, 0.1), "");
    }
}

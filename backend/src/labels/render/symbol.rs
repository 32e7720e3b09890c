//! Barcode encoding into a module matrix: QR (via `qrcode`) and GS1
//! DataMatrix (own ASCII-mode data encoder with FNC1, Reed-Solomon and
//! module placement from `datamatrix`).

use datamatrix::SymbolSize;
use datamatrix::placement::MatrixMap;
use qrcode::{Color, EcLevel, QrCode};

use super::gs1::{self, Element};
use super::{LabelData, RenderError, Symbology};

/// ISO/IEC 18004 requires a 4-module quiet zone around a QR code.
const QR_QUIET_ZONE: usize = 4;
/// ISO/IEC 16022 requires 1 module around a DataMatrix; 2 give the reader
/// some slack next to text.
const DM_QUIET_ZONE: usize = 2;

/// A square barcode as a grid of modules plus its required quiet zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Matrix {
    /// Modules per side, quiet zone excluded.
    size: usize,
    /// Row-major, `true` = dark.
    dark: Vec<bool>,
    /// Light modules required on every side.
    quiet_zone: usize,
}

impl Matrix {
    /// Modules per side without the quiet zone.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Quiet zone width in modules.
    pub fn quiet_zone(&self) -> usize {
        self.quiet_zone
    }

    /// Modules per side including the quiet zone on both sides.
    pub fn total_modules(&self) -> usize {
        self.size + 2 * self.quiet_zone
    }

    /// Whether the module at column `x`, row `y` (quiet zone excluded) is dark.
    #[cfg(test)]
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark[y * self.size + x]
    }

    /// Horizontal runs of dark modules as `(row, first column, length)`,
    /// rows top to bottom; one rectangle per run is enough to draw the symbol.
    pub fn dark_runs(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.dark
            .chunks(self.size)
            .enumerate()
            .flat_map(|(row, cells)| {
                let mut runs = Vec::new();
                let mut start = None;
                for (col, &dark) in cells.iter().enumerate() {
                    match (dark, start) {
                        (true, None) => start = Some(col),
                        (false, Some(s)) => {
                            runs.push((row, s, col - s));
                            start = None;
                        }
                        _ => {}
                    }
                }
                if let Some(s) = start {
                    runs.push((row, s, cells.len() - s));
                }
                runs
            })
    }
}

/// Encodes the barcode of `label` for `symbology`. The label must have been
/// validated; `position` is only used in error messages.
pub(crate) fn encode(
    symbology: Symbology,
    label: &LabelData,
    position: u64,
) -> Result<Matrix, RenderError> {
    match symbology {
        Symbology::Qr => qr(&label.uri).map_err(|reason| RenderError::Encode {
            position,
            symbology,
            reason,
        }),
        Symbology::DataMatrix => gs1_datamatrix(label).map_err(|reason| RenderError::Encode {
            position,
            symbology,
            reason,
        }),
    }
}

/// A QR code (error correction level M) for `data`.
pub(crate) fn qr(data: &str) -> Result<Matrix, String> {
    let code = QrCode::with_error_correction_level(data.as_bytes(), EcLevel::M)
        .map_err(|e| e.to_string())?;
    let size = code.width();
    let dark = code
        .to_colors()
        .into_iter()
        .map(|c| c == Color::Dark)
        .collect();
    Ok(Matrix {
        size,
        dark,
        quiet_zone: QR_QUIET_ZONE,
    })
}

/// DataMatrix ASCII-mode codewords (ISO/IEC 16022, 5.2.3).
mod cw {
    /// FNC1: first codeword marks GS1 data; later ones are separators.
    pub const FNC1: u8 = 232;
    /// First padding codeword.
    pub const PAD: u8 = 129;
    /// Offset of the digit-pair codewords 00..=99.
    pub const DIGIT_PAIR: u8 = 130;
}

/// ECC 200 square symbols: (modules per side, data codewords, size), from
/// ISO/IEC 16022 table 7. Rectangular symbols are left out because ZPL
/// printers cannot print them reliably.
const SQUARE_SYMBOLS: [(usize, usize, SymbolSize); 24] = [
    (10, 3, SymbolSize::Square10),
    (12, 5, SymbolSize::Square12),
    (14, 8, SymbolSize::Square14),
    (16, 12, SymbolSize::Square16),
    (18, 18, SymbolSize::Square18),
    (20, 22, SymbolSize::Square20),
    (22, 30, SymbolSize::Square22),
    (24, 36, SymbolSize::Square24),
    (26, 44, SymbolSize::Square26),
    (32, 62, SymbolSize::Square32),
    (36, 86, SymbolSize::Square36),
    (40, 114, SymbolSize::Square40),
    (44, 144, SymbolSize::Square44),
    (48, 174, SymbolSize::Square48),
    (52, 204, SymbolSize::Square52),
    (64, 280, SymbolSize::Square64),
    (72, 368, SymbolSize::Square72),
    (80, 456, SymbolSize::Square80),
    (88, 576, SymbolSize::Square88),
    (96, 696, SymbolSize::Square96),
    (104, 816, SymbolSize::Square104),
    (120, 1050, SymbolSize::Square120),
    (132, 1304, SymbolSize::Square132),
    (144, 1558, SymbolSize::Square144),
];

/// Appends the ASCII-mode codewords for `text` (digit pairs packed into one
/// codeword). `text` must be 7-bit ASCII, which GS1 character set 82 is.
fn push_ascii(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match bytes.get(i + 1) {
            Some(&d) if c.is_ascii_digit() && d.is_ascii_digit() => {
                out.push(cw::DIGIT_PAIR + (c - b'0') * 10 + (d - b'0'));
                i += 2;
            }
            _ => {
                out.push(c.wrapping_add(1));
                i += 1;
            }
        }
    }
}

/// The unpadded data codewords of the GS1 DataMatrix: FNC1, then the element
/// string in ASCII mode with the FNC1 codeword (not a literal GS) as
/// separator after a variable-length element that is not last.
pub(crate) fn gs1_data_codewords(elements: &[Element]) -> Vec<u8> {
    let mut out = vec![cw::FNC1];
    for (index, element) in elements.iter().enumerate() {
        // Digit pairs may span AI and value, but never an FNC1.
        let mut text = String::with_capacity(element.ai.len() + element.value.len());
        text.push_str(element.ai);
        text.push_str(&element.value);
        push_ascii(&mut out, &text);
        if gs1::needs_separator(elements, index) {
            out.push(cw::FNC1);
        }
    }
    out
}

/// Fills `data` up to `capacity` codewords: one PAD, then the 253-state
/// randomized pads (ISO/IEC 16022, 5.2.3 and annex B.1).
fn pad(data: &mut Vec<u8>, capacity: usize) {
    if data.len() < capacity {
        data.push(cw::PAD);
    }
    while data.len() < capacity {
        let position = data.len() + 1; // 1-based position of this codeword
        let pseudo_random = (149 * position) % 253 + 1;
        let value = usize::from(cw::PAD) + pseudo_random;
        let value = if value <= 254 { value } else { value - 254 };
        // value is in 1..=254 by construction
        data.push(u8::try_from(value).unwrap_or(cw::PAD));
    }
}

/// The smallest square GS1 DataMatrix holding the label's element string.
pub(crate) fn gs1_datamatrix(label: &LabelData) -> Result<Matrix, String> {
    let mut data = gs1_data_codewords(&gs1::elements(label));
    let &(side, capacity, size) = SQUARE_SYMBOLS
        .iter()
        .find(|(_, capacity, _)| *capacity >= data.len())
        .ok_or_else(|| format!("{} codewords do not fit any symbol size", data.len()))?;
    pad(&mut data, capacity);
    let ecc = datamatrix::errorcode::encode_error(&data, size);
    data.extend_from_slice(&ecc);
    let bitmap = MatrixMap::new_with_codewords(&data, size).bitmap();
    if bitmap.width() != side || bitmap.height() != side {
        return Err(format!(
            "unexpected symbol size {}×{}",
            bitmap.width(),
            bitmap.height()
        ));
    }
    Ok(Matrix {
        size: side,
        dark: bitmap.bits().to_vec(),
        quiet_zone: DM_QUIET_ZONE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use datamatrix::data::EncodationType;
    use datamatrix::{DataMatrix, DataMatrixBuilder, SymbolList};

    #[test]
    fn capacity_table_matches_the_datamatrix_crate() {
        for (_, capacity, size) in SQUARE_SYMBOLS {
            let encode = |n: usize| {
                DataMatrixBuilder::new()
                    .with_encodation_types(EncodationType::Ascii)
                    .with_macros(false)
                    .with_symbol_list(SymbolList::with_whitelist([size]))
                    .encode(&vec![b'a'; n])
            };
            let code = encode(capacity).expect("capacity must fit");
            assert_eq!(code.data_codewords().len(), capacity, "{size:?}");
            assert!(encode(capacity + 1).is_err(), "{size:?} holds more");
        }
    }

    #[test]
    fn ascii_packs_digit_pairs_and_uses_fnc1_separator() {
        let elements = vec![
            Element {
                ai: "01",
                value: "09506000134352".into(),
                fixed_length: true,
            },
            Element {
                ai: "10",
                value: "A1".into(),
                fixed_length: false,
            },
            Element {
                ai: "21",
                value: "7".into(),
                fixed_length: false,
            },
        ];
        let cws = gs1_data_codewords(&elements);
        // FNC1, 8 digit pairs for "0109506000134352", "10" pair, 'A'+1,
        // '1'+1, FNC1 separator, "21" pair, '7'+1.
        assert_eq!(
            cws,
            vec![
                232, 131, 139, 180, 190, 130, 143, 173, 182, 140, 66, 50, 232, 151, 56
            ]
        );
        assert!(!cws.contains(&30), "no literal GS codeword");
    }

    #[test]
    fn datamatrix_round_trips_through_the_crate_decoder() {
        let label = LabelData {
            product_name: String::new(),
            gtin: "09506000134352".into(),
            lot: Some("LOT-7_x".into()),
            expiry: chrono::NaiveDate::from_ymd_opt(2027, 3, 31),
            serial: "SER123".into(),
            uri: "https://example.com/01/09506000134352/21/SER123".into(),
        };
        let matrix = gs1_datamatrix(&label).expect("encodes");
        let decoded = DataMatrix::decode(&matrix.dark, matrix.size).expect("decodes");
        assert_eq!(
            String::from_utf8(decoded).expect("ascii"),
            gs1::gs1_element_string(&label)
        );
    }

    #[test]
    fn runs_cover_exactly_the_dark_modules() {
        let matrix = qr("https://example.com/01/09506000134352/21/1").expect("qr");
        let mut painted = vec![false; matrix.size * matrix.size];
        for (row, col, len) in matrix.dark_runs() {
            assert!(len > 0);
            for x in col..col + len {
                assert!(!painted[row * matrix.size + x], "overlap");
                painted[row * matrix.size + x] = true;
            }
        }
        assert_eq!(painted, matrix.dark);
        assert!(matrix.is_dark(0, 0), "finder pattern corner");
    }
}

//! The error type of the label renderer.

use super::Symbology;

/// Everything that can go wrong while validating a design or rendering labels.
///
/// The messages are meant to be shown to the person who made the design or
/// uploaded the label data: they say what is wrong and what to change.
/// Label positions (`position`) are 1-based, in the order the labels were
/// passed to the renderer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The label width or height is outside the supported range.
    #[error(
        "The label is {width_mm} × {height_mm} mm; width and height must each be between {min_mm} and {max_mm} mm."
    )]
    LabelSize {
        /// Requested label width.
        width_mm: f32,
        /// Requested label height.
        height_mm: f32,
        /// Smallest supported side.
        min_mm: f32,
        /// Largest supported side.
        max_mm: f32,
    },

    /// The font size is outside the supported range.
    #[error("The font size is {size_pt} pt; use a size between {min_pt} and {max_pt} pt.")]
    FontSize {
        /// Requested font size.
        size_pt: f32,
        /// Smallest supported size.
        min_pt: f32,
        /// Largest supported size.
        max_pt: f32,
    },

    /// The margin is negative, too large or leaves no room for content.
    #[error(
        "The margin of {margin_mm} mm does not work on a {width_mm} × {height_mm} mm label; use a margin between 0 and {max_mm} mm."
    )]
    Margin {
        /// Requested margin.
        margin_mm: f32,
        /// Label width.
        width_mm: f32,
        /// Label height.
        height_mm: f32,
        /// Largest margin that still leaves room for content.
        max_mm: f32,
    },

    /// The design leaves too little room for even the smallest symbol.
    #[error(
        "The label is {width_mm} × {height_mm} mm; with these margins and text lines there is room for a {available_mm:.1} mm square symbol, but a {symbology} needs at least {needed_mm:.1} mm. Make the label larger, reduce the margin or font size, or show fewer text fields."
    )]
    DesignTooSmall {
        /// Label width.
        width_mm: f32,
        /// Label height.
        height_mm: f32,
        /// Symbology of the design.
        symbology: Symbology,
        /// Side of the square the layout reserves for the symbol.
        available_mm: f32,
        /// Side the smallest possible symbol needs (quiet zone included).
        needed_mm: f32,
    },

    /// A fixed-format text line (GTIN, expiry) does not fit the label width.
    #[error(
        "The {line} line needs {needed_mm:.1} mm at {font_size_pt} pt, but the label has only {available_mm:.1} mm between the margins; use a font size of at most {max_font_pt} pt, a wider label, or turn the {line} line off."
    )]
    TextTooWide {
        /// Which line (`GTIN` or `expiry`).
        line: &'static str,
        /// Width the line needs.
        needed_mm: f32,
        /// Widest text column the label allows.
        available_mm: f32,
        /// Requested font size.
        font_size_pt: f32,
        /// Largest font size with which the line fits.
        max_font_pt: f32,
    },

    /// The data of one label needs a bigger symbol than the design has room for.
    #[error(
        "Label {position}: the label is {width_mm} × {height_mm} mm; a {symbology} with this data ({modules} × {modules} modules with quiet zone) needs at least {needed_mm:.1} mm of height and width, but the layout leaves {available_mm:.1} mm. Shorten the data, enlarge the label, or reduce the margin, font size or number of text fields."
    )]
    SymbolTooLarge {
        /// 1-based position of the label in the batch.
        position: u64,
        /// Label width.
        width_mm: f32,
        /// Label height.
        height_mm: f32,
        /// Symbology of the design.
        symbology: Symbology,
        /// Number of modules across, quiet zone included.
        modules: usize,
        /// Side the symbol needs at the smallest allowed module size.
        needed_mm: f32,
        /// Side of the square the layout reserves for the symbol.
        available_mm: f32,
    },

    /// The design size does not match the label cells of the chosen sheet.
    #[error(
        "The design is {width_mm} × {height_mm} mm but the sheet \"{sheet}\" has {cell_width_mm} × {cell_height_mm} mm labels; set the design to that size or choose a sheet that matches."
    )]
    SheetMismatch {
        /// Name of the sheet preset.
        sheet: &'static str,
        /// Width of one label cell on the sheet.
        cell_width_mm: f32,
        /// Height of one label cell on the sheet.
        cell_height_mm: f32,
        /// Design width.
        width_mm: f32,
        /// Design height.
        height_mm: f32,
    },

    /// A field of one label holds data that cannot be encoded.
    #[error("Label {position}: {message}")]
    InvalidLabel {
        /// 1-based position of the label in the batch.
        position: u64,
        /// Name of the offending field (`gtin`, `lot`, `serial`, `uri`, `expiry`).
        field: &'static str,
        /// What is wrong and what is allowed.
        message: String,
    },

    /// The batch contained no label at all.
    #[error("There are no labels to render.")]
    NoLabels,

    /// The preview resolution is out of range or too coarse for the symbol.
    #[error("{0}")]
    Resolution(String),

    /// The barcode encoder rejected the data.
    #[error("Label {position}: the {symbology} could not be encoded: {reason}")]
    Encode {
        /// 1-based position of the label in the batch.
        position: u64,
        /// Symbology that failed.
        symbology: Symbology,
        /// Reason reported by the encoder.
        reason: String,
    },

    /// The bundled font could not be read (a build problem, not a data problem).
    #[error("The bundled label font could not be loaded.")]
    Font,

    /// The PNG encoder failed.
    #[error("The preview image could not be encoded: {0}")]
    Png(String),

    /// Writing the output failed.
    #[error("Writing the label output failed: {0}")]
    Io(#[from] std::io::Error),
}

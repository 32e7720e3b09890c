//! Uploaded archives, checked before any library opens them.
//!
//! An XLSX is a ZIP of XML parts: 100 KB can unpack to gigabytes, and a
//! reader such as `calamine` keeps some parts (the shared strings, the
//! workbook) whole in memory and every XML event or cell value it reads in
//! a buffer. [`check_xlsx`] bounds all of it, whatever the parts are called
//! (`calamine` finds them case-insensitively and through `_rels/.rels`):
//!
//! 1. the central directory, before anything is unpacked: at most
//!    [`ArchiveLimits::max_parts`] entries, no two names that differ only
//!    in case or slashes, no entry or total declared larger than the
//!    limits, no entry declared to unpack more than
//!    [`ArchiveLimits::max_ratio`] times its packed size;
//! 2. every entry is unpacked through a counter that stops at its limit
//!    whatever its declared size says (declared sizes can lie): the parts
//!    under the workbook's `worksheets/` folder, which a reader streams,
//!    up to [`ArchiveLimits::max_streamed_part_bytes`] each; all other
//!    parts together up to [`ArchiveLimits::max_held_bytes`], of which
//!    those that are not XML up to [`ArchiveLimits::max_binary_bytes`];
//!    everything together up to [`ArchiveLimits::max_total_bytes`];
//! 3. every XML part is read with `quick-xml` (the version and settings
//!    `calamine` uses) through a reader that refuses any single event
//!    (tag or text) longer than [`ArchiveLimits::max_cell_bytes`], and any
//!    cell-like value (`si`, `is`, `v`, `f`, `t`, `definedName`: what
//!    `calamine` gathers into one string, tags and all) longer than that.
//!
//! Only then may the caller open the file. Any upload of an archive (XLSX,
//! ZIP, DOCX, …), today batch updates' XLSX, goes through this guard with
//! its own limits; product import takes CSV only (a 4 MiB body).
//!
//! Infrastructure: names no domain.

use std::collections::HashSet;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Seek};

use quick_xml::events::Event;
use zip::ZipArchive;

/// What an archive may hold, set by the caller.
#[derive(Debug, Clone, Copy)]
pub struct ArchiveLimits {
    /// Entries in the central directory.
    pub max_parts: usize,
    /// All entries together, unpacked (declared and real).
    pub max_total_bytes: u64,
    /// One streamed part (an XLSX worksheet), unpacked.
    pub max_streamed_part_bytes: u64,
    /// The parts that are not streamed, together, unpacked.
    pub max_held_bytes: u64,
    /// The parts that are not XML (images, binaries), together, unpacked.
    pub max_binary_bytes: u64,
    /// Unpacked bytes per packed byte, for an entry over [`RATIO_FLOOR`].
    pub max_ratio: u64,
    /// One XML event, and one cell-like value with its markup, in bytes.
    pub max_cell_bytes: usize,
}

/// Entries smaller than this (unpacked) may have any ratio: a small run of
/// spaces packs to almost nothing.
pub const RATIO_FLOOR: u64 = 1024 * 1024;

/// The largest `_rels/.rels` (a few hundred bytes in any workbook).
const RELS_BYTES: u64 = 1024 * 1024;

/// Why an archive is refused: a sentence a person can act on (the caller
/// adds what to do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchiveProblem {
    /// Not a ZIP, or a damaged or encrypted one.
    Unreadable,
    TooManyParts {
        limit: usize,
    },
    SameName {
        part: String,
    },
    PartTooLarge {
        part: String,
        limit: u64,
    },
    TotalTooLarge {
        limit: u64,
    },
    HeldTooLarge {
        limit: u64,
    },
    BinaryTooLarge {
        limit: u64,
    },
    Ratio {
        part: String,
        limit: u64,
    },
    SizeMismatch {
        part: String,
    },
    CellTooLong {
        part: String,
        limit: usize,
    },
    NotXml {
        part: String,
    },
    NoMainPart,
}

fn mb(bytes: u64) -> u64 {
    bytes / (1024 * 1024)
}

impl fmt::Display for ArchiveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable => write!(
                f,
                "The file is not a readable ZIP archive (damaged, or protected by a password)."
            ),
            Self::TooManyParts { limit } => write!(f, "The file holds more than {limit} parts."),
            Self::SameName { part } => write!(f, "The file holds two parts named {part}."),
            Self::PartTooLarge { part, limit } => write!(
                f,
                "The file's part {part} unpacks to more than {} MB.",
                mb(*limit)
            ),
            Self::TotalTooLarge { limit } => {
                write!(f, "The file unpacks to more than {} MB.", mb(*limit))
            }
            Self::HeldTooLarge { limit } => write!(
                f,
                "The file's text and settings (its parts other than worksheets) unpack to more than {} MB.",
                mb(*limit)
            ),
            Self::BinaryTooLarge { limit } => write!(
                f,
                "The file's pictures and other embedded files unpack to more than {} MB.",
                mb(*limit)
            ),
            Self::Ratio { part, limit } => write!(
                f,
                "The file's part {part} unpacks to more than {limit} times its packed size, which no spreadsheet program writes."
            ),
            Self::SizeMismatch { part } => write!(
                f,
                "The file's part {part} unpacks to more than its stated size: the file is damaged or forged."
            ),
            Self::CellTooLong { part, limit } => write!(
                f,
                "The file's part {part} holds a cell or tag longer than {} KB.",
                limit / 1024
            ),
            Self::NotXml { part } => write!(f, "The file's part {part} is not well-formed XML."),
            Self::NoMainPart => write!(f, "The file's _rels/.rels does not name one main part."),
        }
    }
}

/// A part's name as `calamine` looks it up: `\` as `/`, lower case.
fn normalized(name: &str) -> String {
    name.replace('\\', "/").to_ascii_lowercase()
}

struct Entry {
    index: usize,
    name: String,
    normalized: String,
    declared: u64,
    packed: u64,
}

/// Step 1: the central directory, before anything is unpacked.
fn directory<R: Read + Seek>(
    zip: &ZipArchive<R>,
    limits: &ArchiveLimits,
) -> Result<Vec<Entry>, ArchiveProblem> {
    if zip.len() > limits.max_parts {
        return Err(ArchiveProblem::TooManyParts {
            limit: limits.max_parts,
        });
    }
    let mut seen = HashSet::new();
    let mut entries = Vec::with_capacity(zip.len());
    let mut total: u64 = 0;
    for index in 0..zip.len() {
        let data = zip
            .by_index_data(index)
            .map_err(|_| ArchiveProblem::Unreadable)?;
        let name = data
            .name()
            .map_err(|_| ArchiveProblem::Unreadable)?
            .into_owned();
        if data.encrypted() {
            return Err(ArchiveProblem::Unreadable);
        }
        let normalized = normalized(&name);
        if !seen.insert(normalized.clone()) {
            return Err(ArchiveProblem::SameName { part: name });
        }
        let (declared, packed) = (data.size(), data.compressed_size());
        total = total.saturating_add(declared);
        if declared > limits.max_streamed_part_bytes.max(limits.max_held_bytes) {
            return Err(ArchiveProblem::PartTooLarge {
                part: name,
                limit: limits.max_streamed_part_bytes.max(limits.max_held_bytes),
            });
        }
        if total > limits.max_total_bytes {
            return Err(ArchiveProblem::TotalTooLarge {
                limit: limits.max_total_bytes,
            });
        }
        if declared > RATIO_FLOOR && declared > packed.saturating_mul(limits.max_ratio) {
            return Err(ArchiveProblem::Ratio {
                part: name,
                limit: limits.max_ratio,
            });
        }
        entries.push(Entry {
            index,
            name,
            normalized,
            declared,
            packed,
        });
    }
    Ok(entries)
}

/// Counts the unpacked bytes of one entry and fails past `limit`.
struct Counted<R> {
    inner: R,
    read: u64,
    limit: u64,
    over: bool,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = (self.limit + 1).saturating_sub(self.read);
        let take = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..take])?;
        self.read += n as u64;
        if self.read > self.limit {
            self.over = true;
            return Err(io::Error::other("part over its limit"));
        }
        Ok(n)
    }
}

/// The bytes `quick-xml` consumed since [`Capped::mark`], refused past
/// `cap`: `quick-xml` copies an event into its buffer until it ends, so
/// this bounds that buffer (to `cap` and one read).
struct Capped<R> {
    inner: BufReader<R>,
    since_mark: u64,
    cap: u64,
    over: bool,
}

impl<R: Read> Capped<R> {
    fn mark(&mut self) {
        self.since_mark = 0;
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.inner.buffer()[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Capped<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.since_mark > self.cap {
            self.over = true;
            return Err(io::Error::other("event over its limit"));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.since_mark += n as u64;
        self.inner.consume(n);
    }
}

/// Elements whose content `calamine` gathers into one value: a shared
/// string or inline string (`si`, `is`, ended by their own end tag outside
/// a `t`), and text read up to its end tag (`t`, `v`, `f`, `definedName`).
fn gathered(local: &str) -> Option<bool> {
    match local {
        "si" | "is" => Some(true),
        "t" | "v" | "f" | "definedName" => Some(false),
        _ => None,
    }
}

/// A value being gathered: its end tag, where it began, and for a string
/// the `t` it is in.
struct Gathering {
    closing: String,
    start: u64,
    string: bool,
    in_t: Option<String>,
}

/// Step 3: reads an XML part event by event as `calamine` would; a part
/// that is not well-formed is refused (what a reader would make of the rest
/// is not checked). `Err(None)`:
/// the part could not be read (its counter stopped it, or the ZIP).
fn scan_xml<R: Read>(
    part: &str,
    capped: &mut Capped<R>,
    cell: usize,
) -> Result<(), Option<ArchiveProblem>> {
    let mut xml = quick_xml::Reader::from_reader(capped);
    let config = xml.config_mut();
    config.check_end_names = false;
    config.trim_text(false);
    config.check_comments = false;
    config.expand_empty_elements = true;
    let too_long = || {
        Some(ArchiveProblem::CellTooLong {
            part: part.to_string(),
            limit: cell,
        })
    };
    let mut buf = Vec::new();
    let mut open: Option<Gathering> = None;
    loop {
        buf.clear();
        xml.get_mut().mark();
        let event = match xml.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(quick_xml::Error::Io(_)) if xml.get_ref().over => return Err(too_long()),
            Err(quick_xml::Error::Io(_)) => return Err(None),
            Err(_) => {
                return Err(Some(ArchiveProblem::NotXml {
                    part: part.to_string(),
                }));
            }
        };
        match &event {
            Event::Eof => return Ok(()),
            Event::Start(e) => match &mut open {
                None => {
                    if let Some(string) = gathered(e.local_name().as_ref()) {
                        open = Some(Gathering {
                            closing: e.name().as_ref().to_string(),
                            start: xml.buffer_position(),
                            string,
                            in_t: None,
                        });
                    }
                }
                Some(g) => {
                    if g.string && g.in_t.is_none() && e.local_name().as_ref() == "t" {
                        g.in_t = Some(e.name().as_ref().to_string());
                    }
                }
            },
            Event::End(e) => {
                if let Some(g) = &mut open {
                    let name = e.name();
                    if g.in_t.as_deref() == Some(name.as_ref()) {
                        g.in_t = None;
                    } else if g.in_t.is_none() && g.closing.as_str() == name.as_ref() {
                        open = None;
                    }
                }
            }
            _ => {}
        }
        if let Some(g) = &open
            && xml.buffer_position().saturating_sub(g.start) > cell as u64
        {
            return Err(too_long());
        }
    }
}

/// What one entry may unpack to, and which limit that is.
#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Part,
    Declared,
    Ratio,
    Total,
    Held,
}

/// Checks an XLSX (any ZIP whose main part `_rels/.rels` names) before it
/// is opened. `reader` is the whole file.
pub fn check_xlsx<R: Read + Seek>(reader: R, limits: &ArchiveLimits) -> Result<(), ArchiveProblem> {
    let mut zip = ZipArchive::new(reader).map_err(|_| ArchiveProblem::Unreadable)?;
    let entries = directory(&zip, limits)?;
    // Step 2 and 3, `_rels/.rels` first: it says where the worksheets are.
    let order: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.normalized == "_rels/.rels")
        .chain(entries.iter().filter(|e| e.normalized != "_rels/.rels"))
        .collect();
    let mut sheets: Option<String> = None;
    let (mut total, mut held, mut binary) = (0u64, 0u64, 0u64);
    for entry in order {
        let streamed = sheets
            .as_deref()
            .is_some_and(|prefix| entry.normalized.starts_with(prefix));
        let ratio = (entry.packed.saturating_mul(limits.max_ratio)).max(RATIO_FLOOR);
        let mut bounds = vec![
            (Bound::Declared, entry.declared),
            (Bound::Ratio, ratio),
            (Bound::Total, limits.max_total_bytes - total),
        ];
        if streamed {
            bounds.push((Bound::Part, limits.max_streamed_part_bytes));
        } else {
            bounds.push((Bound::Held, limits.max_held_bytes - held));
        }
        let file = zip
            .by_index(entry.index)
            .map_err(|_| ArchiveProblem::Unreadable)?;
        let limit = bounds.iter().map(|b| b.1).min().unwrap_or(0);
        let counted = Counted {
            inner: file,
            read: 0,
            limit,
            over: false,
        };
        let mut capped = Capped {
            inner: BufReader::with_capacity(8 * 1024, counted),
            since_mark: 0,
            cap: limits.max_cell_bytes as u64,
            over: false,
        };
        // XML by its name, or by its first byte after a UTF-8 mark.
        let Ok(head) = capped.fill_buf() else {
            return Err(over(entry, &capped, &bounds, limits));
        };
        let first = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head).first();
        let is_xml = [".xml", ".rels", ".vml"]
            .iter()
            .any(|ext| entry.normalized.ends_with(ext))
            || first.is_none_or(|b| *b == b'<' || b.is_ascii_whitespace() || *b >= 0xFE);
        if entry.normalized == "_rels/.rels" {
            // Small: read whole, then scanned and parsed from memory.
            let mut text = Vec::new();
            if (&mut capped.inner)
                .take(RELS_BYTES + 1)
                .read_to_end(&mut text)
                .is_err()
            {
                return Err(over(entry, &capped, &bounds, limits));
            }
            if text.len() as u64 > RELS_BYTES {
                return Err(ArchiveProblem::PartTooLarge {
                    part: entry.name.clone(),
                    limit: RELS_BYTES,
                });
            }
            let mut copy = Capped {
                inner: BufReader::new(io::Cursor::new(&text[..])),
                since_mark: 0,
                cap: limits.max_cell_bytes as u64,
                over: false,
            };
            scan_xml(&entry.name, &mut copy, limits.max_cell_bytes)
                .map_err(|p| p.unwrap_or(ArchiveProblem::Unreadable))?;
            sheets = Some(format!("{}worksheets/", main_folder(&text)?));
        } else if is_xml {
            match scan_xml(&entry.name, &mut capped, limits.max_cell_bytes) {
                Ok(()) => {}
                Err(Some(problem)) => return Err(problem),
                Err(None) => return Err(over(entry, &capped, &bounds, limits)),
            }
        }
        // What the scan did not read (a binary part).
        if io::copy(&mut capped.inner, &mut io::sink()).is_err() {
            return Err(over(entry, &capped, &bounds, limits));
        }
        let read = capped.inner.get_ref().read;
        total += read;
        if !streamed {
            held += read;
        }
        if !is_xml {
            binary += read;
            if binary > limits.max_binary_bytes {
                return Err(ArchiveProblem::BinaryTooLarge {
                    limit: limits.max_binary_bytes,
                });
            }
        }
    }
    if sheets.is_none() {
        return Err(ArchiveProblem::NoMainPart);
    }
    Ok(())
}

/// The problem of an entry whose reading failed: the limit it passed, or
/// a damaged part.
fn over<R: Read>(
    entry: &Entry,
    capped: &Capped<Counted<R>>,
    bounds: &[(Bound, u64)],
    limits: &ArchiveLimits,
) -> ArchiveProblem {
    let counted = capped.inner.get_ref();
    if !counted.over {
        return ArchiveProblem::Unreadable;
    }
    let limit = counted.limit;
    let bound = bounds
        .iter()
        .find(|b| b.1 == limit)
        .map_or(Bound::Part, |b| b.0);
    let part = entry.name.clone();
    match bound {
        Bound::Declared => ArchiveProblem::SizeMismatch { part },
        Bound::Ratio => ArchiveProblem::Ratio {
            part,
            limit: limits.max_ratio,
        },
        Bound::Total => ArchiveProblem::TotalTooLarge {
            limit: limits.max_total_bytes,
        },
        Bound::Held => ArchiveProblem::HeldTooLarge {
            limit: limits.max_held_bytes,
        },
        Bound::Part => ArchiveProblem::PartTooLarge {
            part,
            limit: limits.max_streamed_part_bytes,
        },
    }
}

/// The folder of the main part (`xl/` for `xl/workbook.xml`), lower case,
/// found the way `calamine` finds it: the `Target` of the relationship
/// whose `Type` ends with `/relationships/officeDocument`, its leading `/`
/// removed. Every reading of the part must agree on it.
fn main_folder(rels: &[u8]) -> Result<String, ArchiveProblem> {
    let mut xml = quick_xml::Reader::from_reader(rels);
    let config = xml.config_mut();
    config.check_end_names = false;
    config.expand_empty_elements = true;
    let mut folders = HashSet::new();
    loop {
        match xml.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) if e.local_name().as_ref() == "Relationship" => {
                let mut office = false;
                let mut targets = Vec::new();
                for attr in e.attributes().with_checks(false) {
                    let attr = attr.map_err(|_| ArchiveProblem::NoMainPart)?;
                    let value = quick_xml::escape::unescape(&attr.value)
                        .map_err(|_| ArchiveProblem::NoMainPart)?;
                    match attr.key.as_ref() {
                        "Type" => office |= value.ends_with("/relationships/officeDocument"),
                        "Target" => targets.push(value.into_owned()),
                        _ => {}
                    }
                }
                if office {
                    for target in targets {
                        let dir = target.rfind('/').map_or("", |i| &target[..=i]);
                        folders.insert(normalized(dir.strip_prefix('/').unwrap_or(dir)));
                    }
                }
            }
            Ok(_) => {}
            Err(_) => return Err(ArchiveProblem::NoMainPart),
        }
    }
    let mut folders = folders.into_iter();
    match (folders.next(), folders.next()) {
        (Some(folder), None) => Ok(folder),
        _ => Err(ArchiveProblem::NoMainPart),
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use zip::write::SimpleFileOptions;

    use super::*;

    const LIMITS: ArchiveLimits = ArchiveLimits {
        max_parts: 1_000,
        max_total_bytes: 1024 * 1024 * 1024,
        max_streamed_part_bytes: 1024 * 1024 * 1024,
        max_held_bytes: 48 * 1024 * 1024,
        max_binary_bytes: 8 * 1024 * 1024,
        max_ratio: 200,
        max_cell_bytes: 128 * 1024,
    };

    const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;

    /// A part: its name and a writer of its content (in pieces, so a
    /// bomb is never whole in memory).
    type Content<'a> = Box<dyn Fn(&mut dyn Write) + 'a>;
    type Part<'a> = (&'a str, Content<'a>);

    fn text(s: &'static str) -> Content<'static> {
        Box::new(move |w| w.write_all(s.as_bytes()).unwrap())
    }

    /// `head`, then `piece` `times`, then `tail`.
    fn repeated(
        head: &'static str,
        piece: &'static str,
        times: usize,
        tail: &'static str,
    ) -> Content<'static> {
        Box::new(move |w| {
            w.write_all(head.as_bytes()).unwrap();
            let block = piece.repeat(64 * 1024 / piece.len().max(1));
            let per = 64 * 1024 / piece.len().max(1);
            let mut left = times;
            while left > 0 {
                let n = left.min(per);
                w.write_all(&block.as_bytes()[..n * piece.len()]).unwrap();
                left -= n;
            }
            w.write_all(tail.as_bytes()).unwrap();
        })
    }

    fn zip_of(parts: Vec<Part<'_>>) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(true);
        for (name, write) in parts {
            zip.start_file(name, options).unwrap();
            write(&mut zip);
        }
        zip.finish().unwrap().into_inner()
    }

    fn check(bytes: &[u8]) -> Result<(), ArchiveProblem> {
        check_xlsx(Cursor::new(bytes), &LIMITS)
    }

    fn workbook() -> Vec<u8> {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        sheet.write_string(0, 0, "code").unwrap();
        sheet.write_string(1, 0, "0000000000A").unwrap();
        sheet.write_number(1, 1, 9_506_000_134_352.0).unwrap();
        book.save_to_buffer().unwrap()
    }

    /// Letters that do not repeat (a simple generator): they pack about
    /// 1.7 to 1, so only the cell limit refuses them.
    fn noise(len: usize) -> String {
        let mut x: u32 = 12345;
        (0..len)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (b'a' + ((x >> 16) % 26) as u8) as char
            })
            .collect()
    }

    #[test]
    fn a_workbook_of_a_spreadsheet_program_passes() {
        assert_eq!(check(&workbook()), Ok(()));
    }

    #[test]
    fn shared_strings_of_any_case_are_held_and_bounded() {
        let bomb = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "XL/SharedStrings.xml",
                repeated(
                    "<sst><si><t>",
                    "0000000000A</t></si><si><t>",
                    8_000_000,
                    "x</t></si></sst>",
                ),
            ),
        ]);
        assert!(bomb.len() < 2 * 1024 * 1024, "{}", bomb.len());
        // It packs about 150 to 1 (under the ratio): held, it stops at 48 MB.
        let limits = LIMITS;
        assert_eq!(
            check_xlsx(Cursor::new(&bomb), &limits),
            Err(ArchiveProblem::HeldTooLarge {
                limit: LIMITS.max_held_bytes
            })
        );
    }

    #[test]
    fn a_huge_cell_is_refused_even_when_it_packs_badly() {
        let cell = noise(1024 * 1024);
        let sheet = format!(
            "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>{cell}</t></is></c></row></sheetData></worksheet>"
        );
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/worksheets/sheet1.xml",
                Box::new(move |w| w.write_all(sheet.as_bytes()).unwrap()),
            ),
        ]);
        assert!(matches!(
            check(&bytes),
            Err(ArchiveProblem::CellTooLong { .. })
        ));
    }

    #[test]
    fn a_string_split_by_stray_end_tags_is_one_cell() {
        // calamine gathers a `t` until its own end tag, past any other tag.
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/sharedStrings.xml",
                repeated(
                    "<sst><si><t>",
                    "aaaaaaaaaaaaaa<b>",
                    40_000,
                    "</t></si></sst>",
                ),
            ),
        ]);
        let problem = check(&bytes);
        assert!(
            matches!(problem, Err(ArchiveProblem::CellTooLong { .. })),
            "{problem:?}"
        );
    }

    #[test]
    fn a_huge_ratio_is_refused_before_reading() {
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/worksheets/sheet1.xml",
                repeated(
                    "<worksheet><sheetData><row><c t=\"inlineStr\"><is><t>",
                    "a",
                    100 * 1024 * 1024,
                    "</t></is></c></row></sheetData></worksheet>",
                ),
            ),
        ]);
        assert!(matches!(check(&bytes), Err(ArchiveProblem::Ratio { .. })));
    }

    /// A ZIP whose entry `name` states `size` bytes unpacked, in its local
    /// header and in the central directory.
    fn lie_about(mut bytes: Vec<u8>, name: &str, size: u32) -> Vec<u8> {
        let name = name.as_bytes();
        let mut at = 0;
        while at + 46 < bytes.len() {
            let sig = &bytes[at..at + 4];
            let (size_at, name_len_at, name_at) = if sig == b"PK\x03\x04" {
                (22, 26, 30)
            } else if sig == b"PK\x01\x02" {
                (24, 28, 46)
            } else {
                at += 1;
                continue;
            };
            let len =
                u16::from_le_bytes([bytes[at + name_len_at], bytes[at + name_len_at + 1]]) as usize;
            if bytes.get(at + name_at..at + name_at + len) == Some(name) {
                bytes[at + size_at..at + size_at + 4].copy_from_slice(&size.to_le_bytes());
            }
            at += 4;
        }
        bytes
    }

    fn liar() -> Vec<u8> {
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/sharedStrings.xml",
                repeated("<sst>", "<si><t>0000000000A</t></si>", 8_000_000, "</sst>"),
            ),
        ]);
        lie_about(bytes, "xl/sharedStrings.xml", 1000)
    }

    #[test]
    fn declared_sizes_that_lie_are_caught_while_reading() {
        let problem = check(&liar()).unwrap_err();
        assert!(
            matches!(
                problem,
                ArchiveProblem::SizeMismatch { .. } | ArchiveProblem::Unreadable
            ),
            "{problem:?}"
        );
    }

    #[test]
    fn a_part_that_is_not_xml_is_refused() {
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/sharedStrings.xml",
                text("<sst><si><t>a</t></si></sst></sst></sst>"),
            ),
        ]);
        assert!(matches!(check(&bytes), Err(ArchiveProblem::NotXml { .. })));
    }

    #[test]
    fn names_differing_in_case_only_are_refused() {
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            ("xl/sharedStrings.xml", text("<sst/>")),
            ("XL/SHAREDSTRINGS.XML", text("<sst/>")),
        ]);
        assert!(matches!(
            check(&bytes),
            Err(ArchiveProblem::SameName { .. })
        ));
    }

    #[test]
    fn a_binary_part_is_bounded_not_scanned() {
        let bytes = zip_of(vec![
            ("_rels/.rels", text(RELS)),
            (
                "xl/media/image1.png",
                Box::new(|w| w.write_all(noise(100_000).as_bytes()).unwrap()),
            ),
        ]);
        assert_eq!(check(&bytes), Ok(()));
    }

    /// VmHWM (peak resident memory) of this process, in bytes.
    fn peak() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb * 1024
    }

    /// Run alone in its own process by [`the_guard_stays_within_memory`]:
    /// the peak memory of the process while the guard reads the bombs.
    #[test]
    #[ignore = "run in a child process by the_guard_stays_within_memory"]
    fn memory_child() {
        let bombs = [
            liar(),
            zip_of(vec![
                ("_rels/.rels", text(RELS)),
                (
                    "XL/SharedStrings.xml",
                    repeated("<sst>", "<si><t>0000000000A</t></si>", 8_000_000, "</sst>"),
                ),
            ]),
            zip_of(vec![
                ("_rels/.rels", text(RELS)),
                (
                    "xl/worksheets/sheet1.xml",
                    repeated(
                        "<worksheet><sheetData><row><c t=\"inlineStr\"><is><t>",
                        "a",
                        200 * 1024 * 1024,
                        "</t></is></c></row></sheetData></worksheet>",
                    ),
                ),
            ]),
        ];
        let before = peak();
        let limits = ArchiveLimits {
            max_ratio: u64::MAX / 4096,
            ..LIMITS
        };
        for bomb in &bombs {
            assert!(check_xlsx(Cursor::new(bomb), &limits).is_err());
        }
        let grown = peak().saturating_sub(before);
        assert!(
            grown < 100 * 1024 * 1024,
            "grew {} MB",
            grown / (1024 * 1024)
        );
        println!("memory grew {} KB", grown / 1024);
    }

    #[test]
    fn the_guard_stays_within_memory() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "uploads::tests::memory_child",
                "--nocapture",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        println!("{text}");
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("1 passed"), "{text}");
    }
}

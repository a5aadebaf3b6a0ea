//! Taking the metadata out of an image as it streams to the store: a photo's EXIF (GPS position,
//! camera, times), XMP and IPTC, comments, PNG text, time and private chunks, GIF comments and
//! foreign application blocks, and anything after the image's end. What shows the picture
//! stays: JPEG's tables, frames and scans, its JFIF, ICC and Adobe segments, PNG's image and
//! colour chunks, GIF's frames and looping. A photo turned by its EXIF orientation keeps a new EXIF block holding the
//! orientation alone, so it still shows upright.
//!
//! Written here rather than by decoding and encoding again (the `image` crate): the upload
//! pipeline keeps a bounded amount of each file in memory whatever its size, and re-encoding
//! would hold the whole bitmap (up to 40 million pixels) and change the pixels. The container
//! formats are walked block by block; the EXIF itself is read and written by `kamadak-exif`.

use exif::experimental::Writer;
use exif::{Field, In, Reader, Tag, Value};

use super::sniff::ImageKind;

/// The file is not the image its first bytes promised.
#[derive(Debug, PartialEq, Eq)]
pub struct Malformed;

/// The largest metadata block read whole (a JPEG segment's limit): larger ones are dropped unread.
const BLOCK_MAX: usize = 65_540;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
/// The optional PNG chunks that change how the picture shows (colour, transparency, density,
/// animation); every other optional one (text, times, private chunks) is dropped. Critical chunks
/// (an upper-case first letter) are always kept: a decoder needs them.
const PNG_SHOWN: [&[u8; 4]; 14] = [
    b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"sBIT", b"bKGD", b"pHYs", b"acTL", b"fcTL",
    b"fdAT", b"cICP", b"mDCV", b"cLLI",
];
/// GIF application blocks that make an animation loop; every other one is dropped.
const GIF_LOOPING: [&[u8]; 2] = [b"NETSCAPE2.0", b"ANIMEXTS1.0"];

/// What comes after the block just decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Decide the next block.
    Next,
    /// Keep the next `n` bytes as they are, or drop them.
    Copy(usize),
    Skip(usize),
    /// Drop everything to the end (after the image's end).
    Drop,
}

/// What to write for the bytes a step used.
enum Keep {
    All,
    Nothing,
    Bytes(Vec<u8>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    Blocks,
    /// A JPEG's scans, kept up to its end marker.
    JpegScans,
    /// A GIF image's LZW code size byte, before its data sub-blocks.
    GifCodeSize,
    /// GIF data sub-blocks, kept or dropped, until the empty one.
    GifSubBlocks(bool),
}

pub struct Scrubber {
    kind: ImageKind,
    state: State,
    run: Run,
    /// Bytes not decided yet: at most one metadata block and a chunk.
    pending: Vec<u8>,
}

impl Scrubber {
    pub fn new(kind: ImageKind) -> Self {
        Self {
            kind,
            state: State::Start,
            run: Run::Next,
            pending: Vec::new(),
        }
    }

    /// Takes the next bytes of the file; appends to `out` what to keep of them.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), Malformed> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(chunk);
        let mut at = 0;
        while at < pending.len() {
            let rest = &pending[at..];
            let (used, keep, then) = match self.run {
                Run::Drop => (rest.len(), Keep::Nothing, Run::Drop),
                Run::Copy(n) | Run::Skip(n) => {
                    let used = n.min(rest.len());
                    let copy = matches!(self.run, Run::Copy(_));
                    let then = match n - used {
                        0 => Run::Next,
                        left if copy => Run::Copy(left),
                        left => Run::Skip(left),
                    };
                    (used, if copy { Keep::All } else { Keep::Nothing }, then)
                }
                Run::Next => match self.step(rest)? {
                    Some(decided) => decided,
                    None => break,
                },
            };
            match keep {
                Keep::All => out.extend_from_slice(&rest[..used]),
                Keep::Nothing => {}
                Keep::Bytes(bytes) => out.extend_from_slice(&bytes),
            }
            at += used;
            self.run = then;
        }
        pending.drain(..at);
        self.pending = pending;
        Ok(())
    }

    /// The file has ended: refused when it ended inside a block.
    pub fn finish(&self) -> Result<(), Malformed> {
        let whole = self.pending.is_empty()
            && matches!(self.run, Run::Next | Run::Drop)
            && self.state != State::Start;
        if whole { Ok(()) } else { Err(Malformed) }
    }

    /// Decides the block at the start of `buf`: `None` until enough of it has come.
    fn step(&mut self, buf: &[u8]) -> Result<Option<(usize, Keep, Run)>, Malformed> {
        match self.kind {
            ImageKind::Jpeg => self.jpeg(buf),
            ImageKind::Png => self.png(buf),
            ImageKind::Gif => self.gif(buf),
        }
    }

    fn jpeg(&mut self, buf: &[u8]) -> Result<Option<(usize, Keep, Run)>, Malformed> {
        if self.state == State::JpegScans {
            // Inside scans a 0xFF byte is followed by 0x00 or a marker, and 0xFF 0xD9 is only
            // ever the end; a last 0xFF waits for the byte after it.
            return Ok(match buf.windows(2).position(|w| w == [0xFF, 0xD9]) {
                Some(end) => Some((end + 2, Keep::All, Run::Drop)),
                None if buf.ends_with(&[0xFF]) && buf.len() == 1 => None,
                None if buf.ends_with(&[0xFF]) => Some((buf.len() - 1, Keep::All, Run::Next)),
                None => Some((buf.len(), Keep::All, Run::Next)),
            });
        }
        let Some(&[mark, code]) = buf.first_chunk::<2>() else {
            return Ok(None);
        };
        if mark != 0xFF {
            return Err(Malformed);
        }
        if self.state == State::Start {
            self.state = State::Blocks;
            return if code == 0xD8 {
                Ok(Some((2, Keep::All, Run::Next)))
            } else {
                Err(Malformed)
            };
        }
        match code {
            // Fill bytes before a marker.
            0xFF => return Ok(Some((1, Keep::Nothing, Run::Next))),
            0x01 | 0xD0..=0xD7 => return Ok(Some((2, Keep::All, Run::Next))),
            0xD9 => return Ok(Some((2, Keep::All, Run::Drop))),
            // The first scan: the rest is the picture up to its end (metadata belongs before it).
            0xDA => {
                self.state = State::JpegScans;
                return Ok(Some((0, Keep::Nothing, Run::Next)));
            }
            _ => {}
        }
        let Some(&[hi, lo]) = buf.get(2..4).and_then(|b| b.first_chunk::<2>()) else {
            return Ok(None);
        };
        let total = 2 + usize::from(u16::from_be_bytes([hi, lo]));
        if total < 4 {
            return Err(Malformed);
        }
        let metadata = matches!(code, 0xE0..=0xEF | 0xFE);
        if !metadata {
            return Ok(Some((0, Keep::Nothing, Run::Copy(total))));
        }
        let Some(segment) = buf.get(..total) else {
            return Ok(None);
        };
        let data = &segment[4..];
        let keep = match code {
            0xE0 if data.starts_with(b"JFIF\0") => Keep::All,
            0xE2 if data.starts_with(b"ICC_PROFILE\0") => Keep::All,
            0xEE if data.starts_with(b"Adobe") => Keep::All,
            0xE1 if data.starts_with(b"Exif\0\0") => match orientation_only(&data[6..]) {
                Some(tiff) => {
                    let mut app1 = vec![0xFF, 0xE1];
                    let len = u16::try_from(2 + 6 + tiff.len()).map_err(|_| Malformed)?;
                    app1.extend_from_slice(&len.to_be_bytes());
                    app1.extend_from_slice(b"Exif\0\0");
                    app1.extend_from_slice(&tiff);
                    Keep::Bytes(app1)
                }
                None => Keep::Nothing,
            },
            _ => Keep::Nothing,
        };
        Ok(Some((total, keep, Run::Next)))
    }

    fn png(&mut self, buf: &[u8]) -> Result<Option<(usize, Keep, Run)>, Malformed> {
        if self.state == State::Start {
            let Some(signature) = buf.get(..PNG_SIGNATURE.len()) else {
                return Ok(None);
            };
            if signature != PNG_SIGNATURE {
                return Err(Malformed);
            }
            self.state = State::Blocks;
            return Ok(Some((PNG_SIGNATURE.len(), Keep::All, Run::Next)));
        }
        let Some(head) = buf.first_chunk::<8>() else {
            return Ok(None);
        };
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
        let total = usize::try_from(len).map_err(|_| Malformed)? + 12;
        let kind: &[u8; 4] = head[4..].try_into().map_err(|_| Malformed)?;
        if kind == b"IEND" {
            // Kept, and nothing after it is.
            return Ok(buf.get(..total).map(|_| (total, Keep::All, Run::Drop)));
        }
        if kind[0].is_ascii_uppercase() || PNG_SHOWN.contains(&kind) {
            return Ok(Some((0, Keep::Nothing, Run::Copy(total))));
        }
        if kind != b"eXIf" || total > BLOCK_MAX {
            return Ok(Some((0, Keep::Nothing, Run::Skip(total))));
        }
        let Some(chunk) = buf.get(..total) else {
            return Ok(None);
        };
        let keep = match orientation_only(&chunk[8..total - 4]) {
            Some(tiff) => {
                let mut exif = u32::try_from(tiff.len())
                    .map_err(|_| Malformed)?
                    .to_be_bytes()
                    .to_vec();
                exif.extend_from_slice(b"eXIf");
                exif.extend_from_slice(&tiff);
                let crc = crc32fast::hash(&exif[4..]);
                exif.extend_from_slice(&crc.to_be_bytes());
                Keep::Bytes(exif)
            }
            None => Keep::Nothing,
        };
        Ok(Some((total, keep, Run::Next)))
    }

    fn gif(&mut self, buf: &[u8]) -> Result<Option<(usize, Keep, Run)>, Malformed> {
        let Some(&first) = buf.first() else {
            return Ok(None);
        };
        // A colour table's size, from a header's flags.
        let table = |flags: u8| {
            if flags & 0x80 == 0 {
                0
            } else {
                3 << ((flags & 7) + 1)
            }
        };
        Ok(Some(match self.state {
            State::Start => {
                let Some(header) = buf.first_chunk::<13>() else {
                    return Ok(None);
                };
                self.state = State::Blocks;
                (13, Keep::All, Run::Copy(table(header[10])))
            }
            State::GifCodeSize => {
                self.state = State::GifSubBlocks(true);
                (1, Keep::All, Run::Next)
            }
            State::GifSubBlocks(kept) => {
                let keep = if kept { Keep::All } else { Keep::Nothing };
                let size = usize::from(first);
                if size == 0 {
                    self.state = State::Blocks;
                    (1, keep, Run::Next)
                } else if kept {
                    (1, keep, Run::Copy(size))
                } else {
                    (1, keep, Run::Skip(size))
                }
            }
            State::Blocks => match first {
                0x3B => (1, Keep::All, Run::Drop),
                0x2C => {
                    let Some(descriptor) = buf.first_chunk::<10>() else {
                        return Ok(None);
                    };
                    self.state = State::GifCodeSize;
                    (10, Keep::All, Run::Copy(table(descriptor[9])))
                }
                0x21 => {
                    let Some(&[_, label, size]) = buf.first_chunk::<3>() else {
                        return Ok(None);
                    };
                    match label {
                        // A comment.
                        0xFE => {
                            self.state = State::GifSubBlocks(false);
                            (2, Keep::Nothing, Run::Next)
                        }
                        // An application's block: its name is its first sub-block.
                        0xFF => {
                            let end = 3 + usize::from(size);
                            let Some(name) = buf.get(3..end) else {
                                return Ok(None);
                            };
                            let looping = GIF_LOOPING.contains(&name);
                            self.state = State::GifSubBlocks(looping);
                            let keep = if looping { Keep::All } else { Keep::Nothing };
                            (end, keep, Run::Next)
                        }
                        _ => {
                            self.state = State::GifSubBlocks(true);
                            (2, Keep::All, Run::Next)
                        }
                    }
                }
                _ => return Err(Malformed),
            },
            // A JPEG's, never a GIF's.
            State::JpegScans => return Err(Malformed),
        }))
    }
}

/// A new EXIF block (TIFF bytes) holding only the orientation of `tiff`, or `None` when the
/// picture needs no turning (or its EXIF cannot be read: nothing of it is kept then).
fn orientation_only(tiff: &[u8]) -> Option<Vec<u8>> {
    let exif = Reader::new().read_raw(tiff.to_vec()).ok()?;
    let turn = exif
        .get_field(Tag::Orientation, In::PRIMARY)?
        .value
        .get_uint(0)?;
    if !(2..=8).contains(&turn) {
        return None;
    }
    let field = Field {
        tag: Tag::Orientation,
        ifd_num: In::PRIMARY,
        value: Value::Short(vec![u16::try_from(turn).ok()?]),
    };
    let mut writer = Writer::new();
    writer.push_field(&field);
    let mut out = std::io::Cursor::new(Vec::new());
    writer.write(&mut out, false).ok()?;
    Some(out.into_inner())
}

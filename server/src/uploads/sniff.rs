//! What an uploaded file really is, from its bytes alone: PNG, JPEG or GIF, with the pixel size
//! read from its header. Names and client-sent content types are never trusted.
//!
//! Files are judged while they stream: the kind from the first bytes, the rest from the first
//! [`HEAD_BYTES`] (where the size headers live) and the last [`TAIL_BYTES`] (the end markers), so
//! no whole file is ever held in memory.

/// How much of the start of a file is kept: JPEG metadata (EXIF, ICC) can come before the frame
/// header, each segment up to 64 KiB.
pub const HEAD_BYTES: usize = 256 * 1024;
/// How much of the end is kept: enough for PNG's IEND chunk and JPEG's end marker.
pub const TAIL_BYTES: usize = 16;

/// Largest width or height accepted.
pub const MAX_SIDE: u32 = 16_384;
/// Largest pixel count accepted: decoding a small file into a huge bitmap (a decompression bomb)
/// is refused before anyone decodes it.
pub const MAX_PIXELS: u64 = 40_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
}

impl ImageKind {
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Gif => "image/gif",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Jpeg => "jpg",
            Self::Gif => "gif",
        }
    }

    pub fn from_extension(ext: &str) -> Option<Self> {
        match ext {
            "png" => Some(Self::Png),
            "jpg" => Some(Self::Jpeg),
            "gif" => Some(Self::Gif),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageInfo {
    pub kind: ImageKind,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SniffError {
    /// Not a PNG, JPEG or GIF (or a broken one).
    NotAnImage,
    /// Wider, taller or larger than the caps.
    TooManyPixels,
}

fn be16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn le16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
/// The IEND chunk every PNG ends with: length 0, type, CRC.
const PNG_END: &[u8] = b"\0\0\0\0IEND\xaeB`\x82";

fn png(b: &[u8], tail: &[u8]) -> Option<(u32, u32)> {
    // The first chunk is IHDR, 13 bytes long; the file ends with IEND.
    let framed = b.get(12..16)? == b"IHDR" && be32(b, 8)? == 13 && tail.ends_with(PNG_END);
    framed.then(|| Some((be32(b, 16)?, be32(b, 20)?))).flatten()
}

fn gif(b: &[u8], tail: &[u8]) -> Option<(u32, u32)> {
    // Logical screen size after the 6-byte signature; the file ends with the trailer 0x3B.
    let framed = b.len() > 13 && tail.last() == Some(&0x3b);
    framed.then(|| Some((le16(b, 6)?, le16(b, 8)?))).flatten()
}

fn jpeg(b: &[u8], tail: &[u8]) -> Option<(u32, u32)> {
    // Ends with EOI (some writers pad with zeros after it).
    let end = tail.iter().rposition(|&x| x != 0)?;
    if tail.get(end.checked_sub(1)?..=end)? != [0xff, 0xd9] {
        return None;
    }
    // Walk the marker segments after SOI up to the first start-of-frame.
    let mut at = 2;
    loop {
        if *b.get(at)? != 0xff {
            return None;
        }
        while *b.get(at)? == 0xff {
            at += 1;
        }
        let marker = *b.get(at)?;
        at += 1;
        match marker {
            0x01 | 0xd0..=0xd7 => continue,
            0xd9 | 0xda => return None,
            0xc0..=0xc3 | 0xc5..=0xc7 | 0xc9..=0xcb | 0xcd..=0xcf => {
                return Some((be16(b, at + 5)?, be16(b, at + 3)?));
            }
            _ => at += usize::try_from(be16(b, at)?).ok()?,
        }
    }
}

/// The kind a file claims by its first bytes (at least 8 are needed), if it is one we take.
pub fn kind_of(head: &[u8]) -> Option<ImageKind> {
    if head.starts_with(PNG_SIGNATURE) {
        Some(ImageKind::Png)
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some(ImageKind::Gif)
    } else if head.starts_with(&[0xff, 0xd8, 0xff]) {
        Some(ImageKind::Jpeg)
    } else {
        None
    }
}

/// Judges a file from its first [`HEAD_BYTES`] and last [`TAIL_BYTES`] (fewer when it is shorter).
pub fn inspect(head: &[u8], tail: &[u8]) -> Result<ImageInfo, SniffError> {
    let kind = kind_of(head).ok_or(SniffError::NotAnImage)?;
    let size = match kind {
        ImageKind::Png => png(head, tail),
        ImageKind::Gif => gif(head, tail),
        ImageKind::Jpeg => jpeg(head, tail),
    };
    let (width, height) = size
        .filter(|(w, h)| *w > 0 && *h > 0)
        .ok_or(SniffError::NotAnImage)?;
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(SniffError::TooManyPixels);
    }
    Ok(ImageInfo {
        kind,
        width,
        height,
    })
}

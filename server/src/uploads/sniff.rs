//! What an uploaded file really is, from its bytes alone: PNG, JPEG or GIF, with the pixel size
//! read from its header. Names and client-sent content types are never trusted.

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

fn png(b: &[u8]) -> Option<(u32, u32)> {
    // The first chunk is IHDR, 13 bytes long; the file ends with IEND.
    (b.get(12..16)? == b"IHDR" && be32(b, 8)? == 13 && b.ends_with(PNG_END))
        .then(|| Some((be32(b, 16)?, be32(b, 20)?)))
        .flatten()
}

fn gif(b: &[u8]) -> Option<(u32, u32)> {
    // Logical screen size after the 6-byte signature; the file ends with the trailer 0x3B.
    (b.len() > 13 && b.last() == Some(&0x3b))
        .then(|| Some((le16(b, 6)?, le16(b, 8)?)))
        .flatten()
}

fn jpeg(b: &[u8]) -> Option<(u32, u32)> {
    let end = b.iter().rposition(|&x| x != 0)?;
    if b.get(end - 1..=end)? != [0xff, 0xd9] {
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

/// Judges a whole file.
pub fn sniff(bytes: &[u8]) -> Result<ImageInfo, SniffError> {
    let (kind, size) = if bytes.starts_with(PNG_SIGNATURE) {
        (ImageKind::Png, png(bytes))
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        (ImageKind::Gif, gif(bytes))
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        (ImageKind::Jpeg, jpeg(bytes))
    } else {
        return Err(SniffError::NotAnImage);
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

//! Image files made by the tests: a real PNG (CRC-checked chunks, a zlib stored block), a real
//! 1×1 GIF, and a JPEG whose marker structure is valid.

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32fast::hash(&body).to_be_bytes());
}

/// A grey `w`×`h` PNG, padded with a text chunk to exactly `size` bytes when given.
pub fn png(w: u32, h: u32, size: Option<usize>) -> Vec<u8> {
    let mut raw = Vec::new();
    for _ in 0..h {
        raw.push(0); // filter: none
        raw.extend(std::iter::repeat_n(0x80u8, w as usize));
    }
    // zlib: header, stored blocks, Adler-32.
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        z.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &x in &raw {
        a = (a + u32::from(x)) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit greyscale
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    if let Some(size) = size {
        let fixed = out.len() + 12 + z.len() + 12 + 12;
        let pad = size
            .checked_sub(fixed)
            .expect("size leaves room for the image");
        let mut text = b"Comment\0".to_vec();
        text.resize(pad, b'x');
        chunk(&mut out, b"tEXt", &text);
    }
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A real 1×1 GIF; its logical screen size can be set to anything.
pub fn gif(w: u16, h: u16) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(b"\x80\x00\x00\xff\xff\xff\x00\x00\x00");
    out.extend_from_slice(b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;");
    out
}

/// A baseline JPEG frame header of `w`×`h` behind a JFIF segment, ending in EOI.
pub fn jpeg(w: u16, h: u16) -> Vec<u8> {
    let mut out = vec![0xff, 0xd8];
    out.extend_from_slice(&[0xff, 0xe0, 0, 16]);
    out.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    out.extend_from_slice(&[0xff, 0xc0, 0, 11, 8]);
    out.extend_from_slice(&h.to_be_bytes());
    out.extend_from_slice(&w.to_be_bytes());
    out.extend_from_slice(&[1, 1, 0x11, 0]);
    out.extend_from_slice(&[0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12, 0x34]);
    out.extend_from_slice(&[0xff, 0xd9]);
    out
}

/// EXIF (TIFF bytes) as a phone writes it: its make, where it was (GPS), and `orientation`.
pub fn phone_exif(orientation: u16) -> Vec<u8> {
    use exif::{Field, In, Rational, Tag, Value};
    let field = |tag, value| Field {
        tag,
        ifd_num: In::PRIMARY,
        value,
    };
    let degrees = |d| Rational { num: d, denom: 1 };
    let fields = [
        field(Tag::Make, Value::Ascii(vec![b"Quokkaphone".to_vec()])),
        field(Tag::Orientation, Value::Short(vec![orientation])),
        field(Tag::GPSLatitudeRef, Value::Ascii(vec![b"N".to_vec()])),
        field(
            Tag::GPSLatitude,
            Value::Rational(vec![degrees(51), degrees(30), degrees(26)]),
        ),
    ];
    let mut writer = exif::experimental::Writer::new();
    for f in &fields {
        writer.push_field(f);
    }
    let mut out = std::io::Cursor::new(Vec::new());
    writer.write(&mut out, false).expect("exif");
    out.into_inner()
}

/// A JPEG segment: marker, length, data.
fn segment(out: &mut Vec<u8>, marker: u8, data: &[u8]) {
    out.extend_from_slice(&[0xff, marker]);
    out.extend_from_slice(&((data.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(data);
}

/// `jpeg(w, h)` as a phone's photo carries it: EXIF with GPS and an orientation of 6 (turned a
/// quarter), XMP, IPTC, a comment, and bytes after its end.
pub fn jpeg_with_metadata(w: u16, h: u16) -> Vec<u8> {
    let plain = jpeg(w, h);
    let mut out = plain[..20].to_vec(); // SOI and JFIF
    let mut exif = b"Exif\0\0".to_vec();
    exif.extend_from_slice(&phone_exif(6));
    segment(&mut out, 0xe1, &exif);
    segment(
        &mut out,
        0xe1,
        b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPSLatitude 51,30.4N</x:xmpmeta>",
    );
    segment(
        &mut out,
        0xed,
        b"Photoshop 3.0\08BIM\x04\x04IPTC city: London",
    );
    segment(&mut out, 0xfe, b"taken at home");
    out.extend_from_slice(&plain[20..]);
    // After the end, ending as a JPEG must (`sniff` checks the last bytes).
    out.extend_from_slice(b"trailing: 51.5074N\xff\xd9");
    out
}

/// `png(w, h, None)` with what a PNG can carry besides pixels: text, a time, a private chunk,
/// EXIF with GPS and an orientation of 3 (upside down), and bytes after its end.
pub fn png_with_metadata(w: u32, h: u32) -> Vec<u8> {
    let plain = png(w, h, None);
    let ihdr_end = 8 + 12 + 13;
    let mut out = plain[..ihdr_end].to_vec();
    chunk(&mut out, b"tEXt", b"Location\x0051.5074N");
    chunk(&mut out, b"tIME", &[0x07, 0xea, 11, 26, 4, 0, 0]);
    chunk(&mut out, b"prVt", b"device: Quokkaphone");
    chunk(&mut out, b"eXIf", &phone_exif(3));
    out.extend_from_slice(&plain[ihdr_end..]);
    out.extend_from_slice(b"trailing: 51.5074N");
    chunk(&mut out, b"IEND", &[]);
    out
}

/// `gif(1, 1)` looping, with a comment, an XMP application block and bytes after its end.
pub fn gif_with_metadata() -> Vec<u8> {
    let plain = gif(1, 1);
    let header_end = 13 + 6;
    let mut out = plain[..header_end].to_vec();
    out.extend_from_slice(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00");
    out.extend_from_slice(b"\x21\xfe\x0dtaken at home\x00");
    out.extend_from_slice(b"\x21\xff\x0bXMP DataXMP\x0851.5074N\x00");
    out.extend_from_slice(&plain[header_end..]);
    out.extend_from_slice(b"trailing: 51.5074N;");
    out
}

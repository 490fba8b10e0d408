//! Image decoding (`import::image`) and the glTF material reader on the
//! corpus: PNGs decode to Pillow's pixels exactly, the JPEGs decode to the
//! same bytes as a zune-jpeg build with its SIMD paths, and dimension bombs
//! are refused before any pixel buffer is allocated.

use crate::pillow_support;
use crate::{alloc_support, guard_support};
use alloc_support::largest_alloc_in;

use kiln::import::gltf;
use kiln::import::image::{self, MAX_SIDE};
use kiln::model::material::{AlphaMode, Meshes, Wrap};

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/corpus/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn meshes(name: &str) -> Meshes {
    let bytes = corpus(name);
    let source = gltf::Source::parse(&bytes).unwrap();
    gltf::import_meshes(source, &[], &[], None).unwrap()
}

/// Pillow's RGBA pixels of each file, checking it read the format and a
/// colour mode it was expected to.
fn pillow_rgba(files: &[std::path::PathBuf], format: &str, modes: &[&str]) -> Vec<Vec<u8>> {
    pillow_support::decode(files)
        .into_iter()
        .map(|d| {
            assert_eq!(d.format, format);
            assert!(modes.contains(&d.mode.as_str()), "{}", d.mode);
            d.rgba
        })
        .collect()
}

#[test]
#[ignore = "full tier: Pillow"]
fn corpus_pngs_decode_to_pillows_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut ours = Vec::new();
    for glb in ["glb/Fox.glb", "glb/MorphStressTest.glb"] {
        for (i, im) in meshes(glb).images.iter().enumerate() {
            let Some(im) = im else { continue };
            assert_eq!(image::kind(&im.bytes).unwrap(), image::Kind::Png);
            let path = dir.path().join(format!("{}-{i}.png", files.len()));
            std::fs::write(&path, &im.bytes).unwrap();
            files.push(path);
            ours.push(image::decode(&im.bytes).unwrap());
        }
    }
    assert_eq!(
        files.len(),
        3,
        "Fox has one base colour PNG, MorphStressTest two"
    );
    // The survey's interlaced and palette PNGs (its 16-bit one Pillow
    // reads as I;16, which it clips rather than rounds to 8 bits).
    for name in ["survey-interlaced.png", "survey-palette-trns.png"] {
        let bytes = corpus(&format!("images/{name}"));
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        files.push(path);
        ours.push(image::decode(&bytes).unwrap());
    }
    for (mine, theirs) in
        ours.iter()
            .zip(pillow_rgba(&files, "PNG", &["RGB", "RGBA", "P", "L", "LA"]))
    {
        assert_eq!(mine.pixels.len(), theirs.len());
        assert!(
            mine.pixels == theirs,
            "a PNG decodes differently from Pillow"
        );
    }
}

/// Builds `tests/oracles/jpeg_simd` (zune-jpeg with its SIMD paths) into
/// the target folder and returns its path. Offline once the registry has
/// the crates (the build of kiln itself fetched them).
fn simd_oracle() -> std::path::PathBuf {
    let root = env!("CARGO_MANIFEST_DIR");
    let target = format!("{root}/target/oracles");
    let status = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--quiet",
            "--locked",
            "--manifest-path",
        ])
        .arg(format!("{root}/tests/oracles/jpeg_simd/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building tests/oracles/jpeg_simd failed");
    format!("{target}/release/jpeg-simd-oracle").into()
}

#[test]
#[ignore = "full tier: builds zune-jpeg with SIMD, and Pillow"]
fn the_corpus_jpegs_decode_to_the_same_bytes_as_zune_jpegs_simd_build() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut ours = Vec::new();
    for glb in [
        "glb/CesiumMan-blender.glb",
        "glb-meshopt/CesiumMan-blender.q.glb",
    ] {
        let m = meshes(glb);
        let im = m.images[0].as_ref().unwrap();
        assert_eq!(image::kind(&im.bytes).unwrap(), image::Kind::Jpeg);
        let path = dir.path().join(format!("{}.jpg", files.len()));
        std::fs::write(&path, &im.bytes).unwrap();
        files.push(path);
        ours.push(image::decode(&im.bytes).unwrap());
    }
    let out = std::process::Command::new(simd_oracle())
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    if cfg!(target_arch = "x86_64") {
        assert!(
            stderr.contains("avx2: true"),
            "this CPU has no AVX2, so the SIMD path cannot be compared: {stderr}"
        );
    }
    let mut rest = &out.stdout[..];
    for (mine, file) in ours.iter().zip(&files) {
        let n = u64::from_le_bytes(rest[..8].try_into().unwrap()) as usize;
        let theirs = &rest[8..8 + n];
        rest = &rest[8 + n..];
        assert!(
            mine.pixels == theirs,
            "{}: the SIMD build decodes differently",
            file.display()
        );
        // Close to libjpeg's (Pillow's) pixels: JPEG decoders' IDCT and
        // upsampling may differ by a few units, no more.
        let pillow = &pillow_rgba(std::slice::from_ref(file), "JPEG", &["RGB"])[0];
        let worst = mine
            .pixels
            .iter()
            .zip(pillow)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
        let mean = mine
            .pixels
            .iter()
            .zip(pillow)
            .map(|(a, b)| f64::from(a.abs_diff(*b)))
            .sum::<f64>()
            / pillow.len() as f64;
        assert!(mean < 1.0 && worst <= 40, "mean {mean}, worst {worst}");
    }
}

fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    b.extend_from_slice(&13u32.to_be_bytes());
    b.extend_from_slice(&ihdr);
    b.extend_from_slice(&crc32fast::hash(&ihdr).to_be_bytes());
    b.extend_from_slice(&PNG_IEND);
    b
}

/// The IEND chunk every PNG ends with.
const PNG_IEND: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82];

/// `chunk` (type and data) framed as a PNG chunk, inserted before IEND.
fn with_chunk(mut png: Vec<u8>, name: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut chunk = name.to_vec();
    chunk.extend_from_slice(data);
    let at = png.len() - PNG_IEND.len();
    let mut framed = (data.len() as u32).to_be_bytes().to_vec();
    framed.extend_from_slice(&chunk);
    framed.extend_from_slice(&crc32fast::hash(&chunk).to_be_bytes());
    png.splice(at..at, framed);
    png
}

fn jpeg_header(width: u16, height: u16) -> Vec<u8> {
    let mut b = vec![0xff, 0xd8, 0xff, 0xc0, 0, 11, 8];
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&[1, 1, 0x11, 0]);
    b.extend_from_slice(&[0xff, 0xd9]);
    b
}

#[test]
fn dimension_bombs_are_refused_before_allocating() {
    let over = MAX_SIDE + 1;
    for bytes in [
        png_header(over, 1),
        png_header(1, over),
        png_header(u32::MAX >> 1, u32::MAX >> 1),
        jpeg_header(over as u16, 1),
        jpeg_header(1, over as u16),
        jpeg_header(u16::MAX, u16::MAX),
    ] {
        let (r, largest) = largest_alloc_in(|| image::decode(&bytes));
        let e = r.unwrap_err();
        assert!(
            e.to_string().contains("16384"),
            "the error names the limit: {e}"
        );
        // Where the header gives the sides: a PNG's IHDR data, a JPEG's
        // frame header (here at byte 2, its height at 7).
        let at = if bytes[0] == 0x89 { 16 } else { 7 };
        assert!(e.to_string().starts_with(&format!("at byte {at}: ")), "{e}");
        assert!(largest < 1 << 20, "allocated {largest} bytes for {e}");
    }
    // Exactly the limit passes the side check (and then fails for want of
    // image data, having allocated nothing of the image's size).
    let (r, _) = largest_alloc_in(|| image::decode(&png_header(MAX_SIDE, 1)));
    assert!(!r.unwrap_err().to_string().contains("more than 16384"));
    let e = image::decode(b"GIF89a....").unwrap_err();
    assert!(e.to_string().contains("not a PNG or JPEG"), "{e}");
}

/// A PNG of `width` x `height` RGBA pixels whose IDAT holds `zlib`.
fn png_with(width: u32, height: u32, zlib: &[u8]) -> Vec<u8> {
    with_chunk(png_header(width, height), b"IDAT", zlib)
}

#[test]
fn images_claiming_more_pixels_than_their_bytes_can_hold_are_refused_before_allocating() {
    // 16,384 x 16,384 is within the side limit; a few dozen bytes cannot
    // inflate to its 1 GiB of scanlines, nor code its 4 M JPEG blocks.
    let side = MAX_SIDE;
    // CesiumMan's 205 KiB JPEG, its frame header saying 16,384 x 16,384.
    let mut jpeg = glb_image("glb/CesiumMan-blender.glb");
    let sof = sof_offset(&jpeg);
    jpeg[sof + 5..sof + 9].copy_from_slice(&[0x40, 0, 0x40, 0]);
    for (bytes, rule) in [
        (
            png_with(side, side, &[0x78, 0x9c, 3, 0, 0, 0, 0, 1]),
            "deflate expands at most 1032:1",
        ),
        (jpeg, "512 pixels a byte"),
    ] {
        let (r, largest) = largest_alloc_in(|| image::decode(&bytes));
        let Err(e) = r else {
            panic!("{rule}: accepted")
        };
        assert!(
            e.to_string().contains(rule) && e.to_string().contains("16384 x 16384"),
            "{e}"
        );
        assert!(largest < 1 << 20, "allocated {largest} bytes for {e}");
    }
    // A real, highly compressible image (one colour, 2048 x 2048: 16 MiB
    // of pixels in 84 KiB, 195:1) is well inside the bound and decodes.
    let flat = kiln::model::material::Rgba8 {
        width: 2048,
        height: 2048,
        pixels: [9, 99, 199, 255].repeat(2048 * 2048),
    };
    let png = image::encode_png(&flat).unwrap();
    assert!(png.len() < 128 << 10, "{} bytes", png.len());
    assert!(image::decode(&png).unwrap() == flat);
}

/// The first image of a corpus GLB, as stored.
fn glb_image(name: &str) -> Vec<u8> {
    let bytes = corpus(name);
    let g = kiln::formats::glb::decode(&bytes).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(g.json_text()).unwrap();
    let v = &doc["bufferViews"][doc["images"][0]["bufferView"].as_u64().unwrap() as usize];
    let s = v["byteOffset"].as_u64().unwrap_or(0) as usize;
    g.bin.unwrap()[s..s + v["byteLength"].as_u64().unwrap() as usize].to_vec()
}

/// Where a JPEG's frame header (SOF0 to SOF2) starts, by walking its
/// marker segments.
fn sof_offset(jpeg: &[u8]) -> usize {
    let mut at = 2;
    loop {
        assert_eq!(jpeg[at], 0xff);
        let marker = jpeg[at + 1];
        if (0xc0..=0xc2).contains(&marker) {
            return at;
        }
        at += 2 + usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
    }
}

#[test]
fn an_image_cut_short_or_with_bytes_after_it_is_refused() {
    let refused = |bytes: &[u8]| match image::decode(bytes) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    };
    // Cut inside the end marker: the pixels are all there, the file is not.
    let png = glb_image("glb/Fox.glb");
    assert!(image::decode(&png).is_ok());
    let e = refused(&png[..png.len() - 4]);
    assert!(
        e.contains("at byte 26760: PNG does not end with its IEND chunk"),
        "{e}"
    );
    let jpeg = glb_image("glb/CesiumMan-blender.glb");
    assert!(image::decode(&jpeg).is_ok());
    let e = refused(&jpeg[..jpeg.len() - 1]);
    assert!(e.contains("does not end with its EOI marker"), "{e}");
    for mut long in [png, jpeg] {
        long.push(0);
        let e = refused(&long);
        assert!(e.contains("bytes after the image"), "{e}");
    }
}

#[test]
fn the_material_reader_reads_the_corpus() {
    let fox = meshes("glb/Fox.glb");
    assert_eq!(fox.materials.len(), 1);
    let t = fox.materials[0].base_color_texture.unwrap();
    assert_eq!((t.image, t.tex_coord), (0, 0));
    assert_eq!(t.sampler.wrap_s, Wrap::Repeat);
    assert_eq!(fox.meshes.len(), 1);
    let p = &fox.meshes[0].primitives[0];
    assert_eq!(p.tex_coords.len(), 1);
    assert_eq!(p.tex_coords[0].len(), p.positions.len());
    assert!(p.joints.is_some() && p.weights.is_some());

    // Quantized UVs with KHR_texture_transform: the same UVs after the
    // transform as the float original, to quantization precision.
    // gltfpack welds and reorders vertices; its unquantized twin (-noq)
    // keeps the same order.
    let plain = meshes("glb-meshopt/CesiumMan-blender.c-noq.glb");
    let q = meshes("glb-meshopt/CesiumMan-blender.q.glb");
    let tq = q.materials[0].base_color_texture.unwrap();
    assert_ne!(tq.transform.scale, [1.0, 1.0]);
    let pp = &plain.meshes[0].primitives[0];
    let pq = &q.meshes[0].primitives[0];
    assert_eq!(pp.positions.len(), pq.positions.len());
    let tp = plain.materials[0].base_color_texture.unwrap();
    let mut worst = 0.0f64;
    for (a, b) in pp.tex_coords[0].iter().zip(&pq.tex_coords[0]) {
        let a = tp.transform.apply(*a);
        let b = tq.transform.apply(*b);
        worst = worst.max((a[0] - b[0]).abs()).max((a[1] - b[1]).abs());
    }
    assert!(worst < 1e-3, "worst UV difference {worst}");

    let robot = meshes("glb/RobotExpressive.glb");
    assert_eq!(robot.materials.len(), 3);
    assert!(
        robot
            .materials
            .iter()
            .all(|m| m.base_color_texture.is_none())
    );
    assert!(
        robot
            .materials
            .iter()
            .all(|m| m.alpha_mode == AlphaMode::Opaque)
    );
    assert_eq!(robot.images.len(), 0);

    // MorphStressTest: three images, two shown as base colour (the third
    // is an occlusion map, not read).
    let morph = meshes("glb/MorphStressTest.glb");
    assert_eq!(morph.images.len(), 3);
    assert_eq!(morph.images.iter().filter(|i| i.is_some()).count(), 2);
}

#[test]
fn a_png_zlib_bomb_stops_at_the_image_size() {
    // A 4 x 4 RGBA image (4 rows of a filter byte and 16 bytes) whose IDAT
    // inflates to 256 MiB: the decoder reads what the image needs, no more.
    let mut raw = vec![0u8; 256 << 20];
    raw[..4 * 17].fill(0);
    let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 9);
    drop(raw);
    assert!(zlib.len() < 1 << 20, "{}", zlib.len());
    let bomb = png_with(4, 4, &zlib);
    let (r, counts) = guard_support::no_hang("a PNG zlib bomb", || {
        alloc_support::counts_in(|| image::decode(&bomb))
    });
    let largest = counts.largest;
    match r {
        Ok(img) => assert_eq!((img.width, img.height, img.pixels.len()), (4, 4, 64)),
        Err(e) => assert!(e.to_string().contains("PNG"), "{e}"),
    }
    assert!(largest < 4 << 20, "allocated {largest} bytes");
    assert!(counts.bytes < 8 << 20, "{counts:?}");
}

/// The pixel claims' exact limits: a header claiming exactly what the
/// file's bytes can hold passes that check (and then fails to decode, for
/// want of data, having allocated only that claim), one more row is
/// refused as a claim. File lengths are found (a padding chunk, a comment
/// segment) that make the limit a whole number of rows.
#[test]
fn the_pixel_claim_limits_are_exact() {
    let refused = |bytes: &[u8]| match image::decode(bytes) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("decoded"),
    };
    // PNG, RGBA8: a row is 1 + 4w bytes; no IDAT.
    let ratio = image::MAX_DEFLATE_RATIO as usize;
    let (d, w, h) = (0..64usize)
        .find_map(|d| {
            let len = png_header(1, 1).len() + 12 + d;
            (1..=64usize).find_map(|w| {
                let row = 1 + 4 * w;
                let h = ratio * len / row;
                ((ratio * len).is_multiple_of(row) && h <= MAX_SIDE as usize).then_some((d, w, h))
            })
        })
        .unwrap();
    let png = |h: usize| with_chunk(png_header(w as u32, h as u32), b"tEXt", &vec![b'k'; d]);
    let (e, largest) = largest_alloc_in(|| refused(&png(h)));
    assert!(e.contains("PNG does not decode"), "{w} x {h}: {e}");
    assert!(largest < 8 << 20, "{largest}");
    let e = refused(&png(h + 1));
    assert!(e.contains("can inflate to"), "{w} x {}: {e}", h + 1);
    assert!(e.starts_with("at byte 16: PNG claims"), "{e}");

    // JPEG: a 16 x 16 one of 723 bytes, a comment segment after SOI sized
    // so that 512 pixels a byte is w x h exactly.
    let base = corpus("images/tiny.jpg");
    let per = image::MAX_JPEG_PIXELS_PER_BYTE as usize;
    let (n, w, h) = (0..4096usize)
        .find_map(|n| {
            let pixels = per * (base.len() + 4 + n);
            (1..=MAX_SIDE as usize / 2).rev().find_map(|w| {
                (pixels.is_multiple_of(w) && pixels / w < MAX_SIDE as usize).then_some((
                    n,
                    w,
                    pixels / w,
                ))
            })
        })
        .unwrap();
    let jpeg = |h: usize| {
        let mut b = base[..2].to_vec();
        b.extend_from_slice(&[0xff, 0xfe]);
        b.extend_from_slice(&((n + 2) as u16).to_be_bytes());
        b.extend(std::iter::repeat_n(b'k', n));
        b.extend_from_slice(&base[2..]);
        let sof = sof_offset(&b);
        b[sof + 5..sof + 7].copy_from_slice(&(h as u16).to_be_bytes());
        b[sof + 7..sof + 9].copy_from_slice(&(w as u16).to_be_bytes());
        b
    };
    let (e, largest) = largest_alloc_in(|| image::decode(&jpeg(h)).map(|i| i.pixels.len()));
    assert!(!format!("{e:?}").contains("can code"), "{w} x {h}: {e:?}");
    assert!(largest <= w * h * 4 + (8 << 20), "{largest}");
    let bomb = jpeg(h + 1);
    let e = refused(&bomb);
    assert!(e.contains("can code"), "{w} x {}: {e}", h + 1);
    let sides = sof_offset(&bomb) + 5;
    assert!(
        e.starts_with(&format!("at byte {sides}: JPEG claims")),
        "{e}"
    );
}

#[test]
fn a_png_whose_samples_need_more_than_a_gib_is_refused_before_allocating() {
    // 16,384 x 16,384 at 16 bits RGBA: 2 GiB of samples; padded to 2.2 MB
    // so the claim passes the deflate bound and this rule is the one.
    let mut png = png_header(MAX_SIDE, MAX_SIDE);
    png[24] = 16;
    let crc = crc32fast::hash(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let png = with_chunk(
        with_chunk(png, b"tEXt", &vec![b'k'; 2_200_000]),
        b"IDAT",
        &[0x78, 0x9c],
    );
    let (r, largest) = largest_alloc_in(|| image::decode(&png));
    let Err(e) = r else { panic!("decoded") };
    assert!(
        e.to_string()
            .contains("needs 2147483648 bytes to decode, more than 1073741824"),
        "{e}"
    );
    assert!(largest < 8 << 20, "allocated {largest} bytes");
}

/// Both decoders refuse a side of zero in the header; kiln relies on it.
#[test]
fn an_image_with_a_side_of_zero_is_refused() {
    let tiny = corpus("images/tiny.jpg");
    for (w, h) in [(0u16, 16u16), (16, 0), (0, 0)] {
        let mut jpeg = tiny.clone();
        let sof = sof_offset(&jpeg);
        jpeg[sof + 5..sof + 7].copy_from_slice(&h.to_be_bytes());
        jpeg[sof + 7..sof + 9].copy_from_slice(&w.to_be_bytes());
        let Err(e) = image::decode(&jpeg) else {
            panic!("{w} x {h} decoded")
        };
        assert!(
            e.to_string().contains("width or height is set to zero"),
            "{e}"
        );
        let mut png = png_header(u32::from(w), u32::from(h));
        png = with_chunk(png, b"IDAT", &[0x78, 0x9c, 3, 0, 0, 0, 0, 1]);
        let Err(e) = image::decode(&png) else {
            panic!("{w} x {h} decoded")
        };
        assert!(
            e.to_string()
                .contains("at byte 16: PNG does not decode: Invalid image dimensions"),
            "{e}"
        );
    }
}

/// A CMYK JPEG as Pillow (and Photoshop) write it, pure red ink: kiln does
/// not convert four-component JPEGs, and says so by name rather than give
/// rotated channels ((0, 255, 0) for red).
#[test]
fn a_cmyk_jpeg_is_refused_by_name() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/images/red-cmyk.jpg"
    ))
    .unwrap();
    let e = image::decode(&bytes).unwrap_err();
    assert!(
        e.what
            .contains("JPEG is CMYK (four ink components), which kiln does not convert"),
        "{e:?}"
    );
    assert!(e.offset > 0 && (e.offset as usize) < bytes.len(), "{e:?}");
}

/// The corpus's images as stored: `images/tiny.jpg` and every image of
/// Fox (PNG), CesiumMan (JPEG) and MorphStressTest (PNGs).
fn corpus_images() -> Vec<Vec<u8>> {
    let mut images: Vec<Vec<u8>> = vec![corpus("images/tiny.jpg")];
    for name in [
        "glb/Fox.glb",
        "glb/CesiumMan-blender.glb",
        "glb/MorphStressTest.glb",
    ] {
        images.extend(meshes(name).images.into_iter().flatten().map(|i| i.bytes));
    }
    images
}

/// The sides a header gives (`header_sides`, which the atlas is laid out
/// from before any image is decoded) are the sides of the decoded image,
/// for every image of the corpus; a header that `decode` refuses from its
/// header alone gives none, and `claimed_texels` is their product.
#[test]
fn header_sides_are_the_decoded_sides_and_none_where_decode_refuses_the_header() {
    let images = corpus_images();
    let mut kinds = [0usize; 2];
    for bytes in &images {
        let im = image::decode(bytes).unwrap();
        assert_eq!(image::header_sides(bytes), Some([im.width, im.height]));
        assert_eq!(
            image::claimed_texels(bytes),
            u64::from(im.width) * u64::from(im.height)
        );
        kinds[usize::from(image::kind(bytes).unwrap() == image::Kind::Jpeg)] += 1;
    }
    assert!(kinds[0] > 0 && kinds[1] > 0, "PNGs and JPEGs: {kinds:?}");
    assert_eq!(image::header_sides(&png_header(300, 7)), Some([300, 7]));
    assert_eq!(image::header_sides(&jpeg_header(5, 9)), Some([5, 9]));
    assert_eq!(
        image::header_sides(&png_header(MAX_SIDE, MAX_SIDE)),
        Some([MAX_SIDE; 2])
    );
    let over = MAX_SIDE + 1;
    for bytes in [
        png_header(over, 1),
        png_header(1, over),
        png_header(0, 1),
        png_header(1, 0),
        jpeg_header(over as u16, 1),
        jpeg_header(1, 0),
        png_header(4, 4)[..20].to_vec(),
        jpeg_header(4, 4)[..8].to_vec(),
        b"GIF89a....".to_vec(),
    ] {
        assert_eq!(image::header_sides(&bytes), None, "{bytes:02x?}");
        assert!(image::decode(&bytes).is_err());
    }
    // A PNG refused by its header claims nothing; a JPEG whose frame
    // header is not found claims what its bytes can code.
    assert_eq!(image::claimed_texels(&png_header(over, 1)), 0);
    let cut = jpeg_header(4, 4)[..8].to_vec();
    assert_eq!(
        image::claimed_texels(&cut),
        image::MAX_JPEG_PIXELS_PER_BYTE * cut.len() as u64
    );
}

/// A PNG of every colour type at 8 and 16 bits decodes to the RGBA8 these rules give: grey repeated, alpha kept or
/// 255, 16-bit samples rounded to 8 as `(v · 255 + 32767) / 65535`. The
/// 8-bit types are expanded in the decoder's buffer, the 16-bit ones
/// copied; both must give these texels.
#[test]
fn every_png_colour_type_decodes_to_rgba8_by_its_rule() {
    use png::{BitDepth, ColorType};
    let (w, h) = (7u32, 5u32);
    for (color, channels) in [
        (ColorType::Grayscale, 1usize),
        (ColorType::GrayscaleAlpha, 2),
        (ColorType::Rgb, 3),
        (ColorType::Rgba, 4),
    ] {
        for depth in [BitDepth::Eight, BitDepth::Sixteen] {
            {
                let bytes_per = if depth == BitDepth::Eight { 1 } else { 2 };
                let n = (w * h) as usize * channels * bytes_per;
                let samples: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
                let mut png = Vec::new();
                {
                    let mut e = png::Encoder::new(&mut png, w, h);
                    e.set_color(color);
                    e.set_depth(depth);
                    e.write_header()
                        .unwrap()
                        .write_image_data(&samples)
                        .unwrap();
                }
                let want: Vec<u8> = samples
                    .chunks_exact(channels * bytes_per)
                    .flat_map(|p| {
                        let s: Vec<u8> = (0..channels)
                            .map(|c| {
                                if bytes_per == 1 {
                                    p[c]
                                } else {
                                    let v = u32::from(u16::from_be_bytes([p[2 * c], p[2 * c + 1]]));
                                    ((v * 255 + 32767) / 65535) as u8
                                }
                            })
                            .collect();
                        match channels {
                            1 => [s[0], s[0], s[0], 255],
                            2 => [s[0], s[0], s[0], s[1]],
                            3 => [s[0], s[1], s[2], 255],
                            _ => [s[0], s[1], s[2], s[3]],
                        }
                    })
                    .collect();
                let im = image::decode(&png).unwrap();
                assert_eq!((im.width, im.height), (w, h));
                assert!(im.pixels == want, "{color:?} {depth:?}");
            }
        }
    }
}

/// `complete_len` finds where a complete PNG or JPEG ends when bytes
/// follow it (the padding some exporters leave inside a GLB), for every
/// image of the corpus with 1, 2 and 100 bytes after it (zeros, and bytes
/// that look like a marker); an image that ends with its bytes, or is
/// cut, has none.
#[test]
fn complete_len_finds_the_end_of_every_corpus_image_with_bytes_after_it() {
    let images = corpus_images();
    for bytes in &images {
        assert_eq!(image::complete_len(bytes), None);
        for after in [vec![0u8], vec![0, 0], vec![0xff; 100], vec![0xff, 0xd9]] {
            let mut padded = bytes.clone();
            padded.extend(&after);
            assert_eq!(image::complete_len(&padded), Some(bytes.len()));
            // The strict decoder still refuses the zero-padded bytes.
            if after[0] == 0 {
                assert!(image::decode(&padded).is_err());
            }
        }
        for cut in [bytes.len() - 1, bytes.len() / 2, 12] {
            assert_eq!(image::complete_len(&bytes[..cut]), None, "cut at {cut}");
        }
    }
    assert_eq!(image::complete_len(b"GIF89a...."), None);
}

/// What real exporters write, decided image by image (the fixtures are
/// made by `tests/corpus/images/make_survey.py` with Pillow): an Adam7
/// interlaced PNG decodes to the pattern exactly; a palette PNG with
/// `tRNS` gives alpha 0 on the transparent index; 16-bit grey rounds each
/// sample to 8 bits; a progressive JPEG decodes to the same texels as the
/// baseline JPEG of the same coefficients; an EXIF orientation is not
/// applied (a texture's UVs address its texels as stored, as colour
/// metadata is not applied either), so the rotated file's texels are the
/// baseline's; a greyscale JPEG is grey RGB. CMYK is refused by name
/// (`a_cmyk_jpeg_is_refused_by_name`).
#[test]
fn what_real_exporters_write_is_decided_image_by_image() {
    let (w, h) = (16usize, 12usize);
    let pattern: Vec<u8> = (0..w * h)
        .flat_map(|k| [(16 * (k % w)) as u8, (20 * (k / w)) as u8, 128, 255])
        .collect();
    let png = corpus("images/survey-interlaced.png");
    assert_eq!(png[28], 1, "the fixture is Adam7 interlaced");
    assert!(image::decode(&png).unwrap().pixels == pattern);

    let pal = image::decode(&corpus("images/survey-palette-trns.png")).unwrap();
    let alphas: std::collections::BTreeSet<u8> = pal.pixels.chunks(4).map(|p| p[3]).collect();
    assert_eq!(alphas.into_iter().collect::<Vec<_>>(), [0, 255]);

    let grey = image::decode(&corpus("images/survey-16bit-grey.png")).unwrap();
    for (k, p) in grey.pixels.chunks(4).enumerate() {
        let v = (k as u32 * 523) % 65536;
        let g = ((v * 255 + 32767) / 65535) as u8;
        assert_eq!(p, [g, g, g, 255], "pixel {k}");
    }

    let baseline = image::decode(&corpus("images/survey-baseline.jpg")).unwrap();
    let progressive = corpus("images/survey-progressive.jpg");
    assert!(progressive.windows(2).any(|m| m == [0xff, 0xc2]), "SOF2");
    assert!(image::decode(&progressive).unwrap() == baseline);
    let rotated = corpus("images/survey-exif-rotated.jpg");
    assert!(rotated.windows(4).any(|m| m == b"Exif"));
    let r = image::decode(&rotated).unwrap();
    assert_eq!((r.width, r.height), (16, 12), "not turned");
    assert!(r == baseline);
    // The JPEG is close to the pattern (quality 95).
    let worst = baseline
        .pixels
        .iter()
        .zip(&pattern)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    assert!(worst <= 24, "{worst}");

    let g = image::decode(&corpus("images/survey-grey.jpg")).unwrap();
    assert!(
        g.pixels
            .chunks(4)
            .all(|p| p[0] == p[1] && p[1] == p[2] && p[3] == 255)
    );
}

//! Bounded by the sum, not just the item (issue 25): files far larger
//! than what their output needs, and inputs whose items are each in
//! bounds while their total is not, run under a `prlimit` address-space
//! cap well below what the whole file or the total would take. Each ends
//! in success (kiln read only what it needed) or exit 1 with a message
//! naming the file and the rule, never an abort. The caps, not the clock,
//! are the bounds asserted.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::boundary::{HANG, run_within};
use crate::cli_support::{KILN, Project, REPO, stderr};
use crate::gltf_support::{make_glb, split_glb};

/// The address space a capped kiln gets: its code, threads and allocator
/// arenas fit with room to spare; none of the files below does.
const CAP: u64 = 512 << 20;

/// Sparse files this large take no disk and no time to make.
const BIG: u64 = 900 << 20;

/// `kiln ARGS` in `p` under the [`CAP`].
fn capped(p: &Project, args: &[&str]) -> Output {
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--as={CAP}"))
        .args(["--", KILN])
        .args(args)
        .current_dir(p.root());
    run_within(&mut cmd, HANG).0
}

/// A GLB of `json` and `bin`, its BIN chunk grown (sparse, zeros) to
/// `chunk` bytes: a file of about `chunk` bytes whose buffer is small.
fn sparse_glb(path: &std::path::Path, json: &Value, bin: &[u8], chunk: u64) {
    let mut text = serde_json::to_vec(json).unwrap();
    text.resize(text.len().next_multiple_of(4), b' ');
    let total = 12 + 8 + text.len() as u64 + 8 + chunk;
    let mut f = fs::File::create(path).unwrap();
    f.write_all(b"glTF").unwrap();
    f.write_all(&2u32.to_le_bytes()).unwrap();
    f.write_all(&(total as u32).to_le_bytes()).unwrap();
    f.write_all(&(text.len() as u32).to_le_bytes()).unwrap();
    f.write_all(b"JSON").unwrap();
    f.write_all(&text).unwrap();
    f.write_all(&(chunk as u32).to_le_bytes()).unwrap();
    f.write_all(b"BIN\0").unwrap();
    f.write_all(bin).unwrap();
    f.set_len(total).unwrap();
}

/// A file of `len` bytes beginning with `head`, the rest a hole.
fn sparse_file(path: &std::path::Path, head: &[u8], len: u64) {
    let mut f = fs::File::create(path).unwrap();
    f.write_all(head).unwrap();
    f.seek(SeekFrom::Start(0)).unwrap();
    f.set_len(len).unwrap();
}

const POSE_CACHE: &str = "pose_caches:\n  - id: big\n    source: sources/big/SOURCE\n    animation: 0\n    rate_hz: 30\n";

/// `manifests/big.yaml`: one pose cache of `sources/big/SOURCE`.
fn pose_cache_of(p: &Project, source: &str) {
    p.write("manifests/big.yaml", &POSE_CACHE.replace("SOURCE", source));
}

/// The corpus's SimpleSkin.glb, a skin with one animation.
fn simple_skin_glb() -> Vec<u8> {
    fs::read(format!("{REPO}/tests/corpus/glb/SimpleSkin.glb")).unwrap()
}

/// [`simple_skin_glb`] as its JSON and BIN chunk.
fn simple_skin() -> (Value, Vec<u8>) {
    split_glb(&simple_skin_glb())
}

/// A GLB (and a `.gltf`'s buffer file) is read as far as its header, JSON
/// and buffer `byteLength` say: a 900 MiB file whose buffer is 1 KB builds
/// under a 512 MiB cap, and gives the same output as the small file.
#[cfg(target_os = "linux")]
#[test]
fn a_large_file_with_a_small_buffer_is_read_as_far_as_the_buffer() {
    let p = Project::empty();
    fs::create_dir_all(p.path("sources/big")).unwrap();
    let (json, bin) = simple_skin();
    sparse_glb(&p.path("sources/big/skin.glb"), &json, &bin, BIG);
    pose_cache_of(&p, "skin.glb");
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let from_big = fs::read(p.path("out/poses/big.ospc")).unwrap();
    // The same asset at its own size gives the same output.
    p.write_bytes("sources/big/skin.glb", &simple_skin_glb());
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        fs::read(p.path("out/poses/big.ospc")).unwrap() == from_big,
        "the output differs"
    );
    sparse_glb(&p.path("sources/big/skin.glb"), &json, &bin, BIG);

    // The same asset as a .gltf whose buffer file is 900 MiB.
    let mut gltf = json.clone();
    gltf["buffers"][0]["uri"] = json!("skin.bin");
    p.write("sources/big/skin.gltf", &gltf.to_string());
    sparse_file(&p.path("sources/big/skin.bin"), &bin, BIG);
    pose_cache_of(&p, "skin.gltf");
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // `kiln inspect` reads the same way.
    for file in ["sources/big/skin.glb", "sources/big/skin.gltf"] {
        let o = capped(&p, &["inspect", file]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
    }
}

/// A file whose first bytes already break the rules is refused from them:
/// a 1 GiB hole named `.glb` (not a GLB at byte 0), a GLB whose header
/// length is not the file's, a JSON chunk overrunning the file.
#[cfg(target_os = "linux")]
#[test]
fn a_glb_is_refused_by_its_header_before_the_rest_is_read() {
    let p = Project::empty();
    fs::create_dir_all(p.path("sources/big")).unwrap();
    let mut header_lies = b"glTF\x02\0\0\0\x10\0\0\0".to_vec();
    header_lies.extend_from_slice(&[0; 8]);
    let mut json_overruns = b"glTF\x02\0\0\0\0\0\0\x30".to_vec();
    json_overruns.extend_from_slice(&u32::MAX.to_le_bytes());
    json_overruns.extend_from_slice(b"JSON");
    let cases: [(&[u8], &str); 3] = [
        (b"", "at byte 0: not a glb (magic is not \"glTF\")"),
        (
            &header_lies,
            "at byte 8: glb header length 16 differs from the file's",
        ),
        (
            &json_overruns,
            "at byte 12: glb chunk 0 of 4294967295 bytes overruns",
        ),
    ];
    for (head, want) in cases {
        let len = match head.len() {
            0 => (1 << 30) - 1,
            _ => 0x3000_0000,
        };
        sparse_file(&p.path("sources/big/skin.glb"), head, len);
        pose_cache_of(&p, "skin.glb");
        let o = capped(&p, &["build"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{want}: {err}");
        assert!(
            err.contains("sources/big/skin.glb") && err.contains(want),
            "{want}: {err}"
        );
        if head.is_empty() {
            continue; // not a file `inspect` recognizes at all
        }
        let o = capped(&p, &["inspect", "sources/big/skin.glb"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{want}: {err}");
        assert!(err.contains(want), "{want}: {err}");
    }
}

/// A buffer that really is larger than the memory kiln may have is a
/// refusal naming the file and the bytes, not an abort.
#[cfg(target_os = "linux")]
#[test]
fn a_buffer_larger_than_the_memory_at_hand_is_an_error_not_an_abort() {
    let p = Project::empty();
    fs::create_dir_all(p.path("sources/big")).unwrap();
    let (mut json, bin) = simple_skin();
    json["buffers"][0]["byteLength"] = json!(BIG);
    sparse_glb(&p.path("sources/big/skin.glb"), &json, &bin, BIG);
    pose_cache_of(&p, "skin.glb");
    let o = capped(&p, &["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("sources/big/skin.glb: needs") && err.contains("bytes of memory"),
        "{err}"
    );
}

/// A GLB of `tracks` root nodes, each with a CUBICSPLINE translation
/// channel from 0 to `seconds` (two keys, one shared sampler): a few bytes
/// a track that resampling turns into `seconds × resample_hz` keys each.
fn cubic_bomb(tracks: usize, seconds: f32) -> Vec<u8> {
    let mut bin = Vec::new();
    for t in [0.0f32, seconds] {
        bin.extend_from_slice(&t.to_le_bytes());
    }
    for v in [
        0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0,
    ] {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    let nodes: Vec<Value> = (0..tracks)
        .map(|i| json!({"name": format!("n{i}")}))
        .collect();
    let channels: Vec<Value> = (0..tracks)
        .map(|i| json!({"sampler": 0, "target": {"node": i, "path": "translation"}}))
        .collect();
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": (0..tracks).collect::<Vec<_>>()}],
        "nodes": nodes,
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 8},
            {"buffer": 0, "byteOffset": 8, "byteLength": 72}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [seconds]},
            {"bufferView": 1, "componentType": 5126, "count": 6, "type": "VEC3"}
        ],
        "animations": [{"name": "bomb", "channels": channels, "samplers": [
            {"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}
        ]}]
    });
    crate::gltf_support::make_glb(&doc, &bin)
}

const LEVEL: &str = "characters:\n  - level: bomb\n    banks:\n      - id: b\n        resample_hz: 1000\n        clips:\n          - source: sources/big/bomb.glb\n    models:\n      - id: m\n        source: sources/big/skin.glb\n        bank: b\n";

/// A bank's keys are bounded as a sum: 3,000 CUBICSPLINE tracks of 99.9 s
/// resampled at 1 kHz (a 230 KB GLB that made about 6 GB of keys) are
/// refused before any is made, at the clip's line; 200 tracks of 5 s (1
/// million keys, within the work bound) stop as soon as the bank holds
/// more than it may. Both under the 512 MiB cap.
#[cfg(target_os = "linux")]
#[test]
fn a_banks_keys_are_bounded_before_they_exist() {
    let p = Project::empty();
    p.write_bytes("sources/big/skin.glb", &simple_skin_glb());
    p.write("manifests/level.yaml", LEVEL);
    p.write_bytes("sources/big/bomb.glb", &cubic_bomb(3000, 99.9));
    let o = capped(&p, &["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("level.yaml:7:13:"),
        "at the clip's line: {err}"
    );
    assert!(
        err.contains("keys before reduction, more than the 16777216 a bank may"),
        "{err}"
    );

    // The model binds to the bank (it has the 200 nodes the bank animates)
    // before the clips are compiled, where the skin is known.
    let (mut json, bin) = simple_skin();
    let first = json["nodes"].as_array().unwrap().len();
    for i in 0..200 {
        json["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": format!("n{i}")}));
        json["scenes"][0]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!(first + i));
    }
    p.write_bytes("sources/big/skin.glb", &make_glb(&json, &bin));
    p.write_bytes("sources/big/bomb.glb", &cubic_bomb(200, 5.0));
    let o = capped(&p, &["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the bank holds more than 100000 keys"),
        "{err}"
    );
}

/// A 1-bit grayscale PNG of `side` x `side` zeros: a few tens of KB that
/// decode to `side`² RGBA texels.
fn one_bit_png(side: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, side, side);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::One);
    enc.set_compression(png::Compression::High);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&vec![0u8; (side as usize / 8) * side as usize])
        .unwrap();
    w.finish().unwrap();
    out
}

/// A GLB of one mesh whose `images.len()` triangles each show one of
/// `images` (PNGs or JPEGs, embedded in buffer views) through its own
/// material.
pub fn textured_glb(images: &[Vec<u8>]) -> Vec<u8> {
    let mut bin = Vec::new();
    for v in [
        0.0f32, 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 1.,
    ] {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    let mut views = vec![
        json!({"buffer": 0, "byteOffset": 0, "byteLength": 36}),
        json!({"buffer": 0, "byteOffset": 36, "byteLength": 24}),
    ];
    for im in images {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": im.len()}));
        bin.extend_from_slice(im);
        bin.resize(bin.len().next_multiple_of(4), 0);
    }
    let n = images.len();
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}
        ],
        "images": images.iter().enumerate().map(|(i, im)| json!({
            "bufferView": 2 + i,
            "mimeType": if im.starts_with(&[0xff, 0xd8]) { "image/jpeg" } else { "image/png" }
        })).collect::<Vec<_>>(),
        "textures": (0..n).map(|i| json!({"source": i})).collect::<Vec<_>>(),
        "materials": (0..n).map(|i| json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}})).collect::<Vec<_>>(),
        "meshes": [{"primitives": (0..n).map(|i| json!({"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": i})).collect::<Vec<_>>()}],
        "nodes": [{"mesh": 0}]
    });
    crate::gltf_support::make_glb(&doc, &bin)
}

/// The images a model shows are bounded as a sum, from their headers,
/// before any is decoded: four 16,384² 1-bit PNGs (a few tens of KB each,
/// 4 GiB decoded) are refused under the 512 MiB cap, naming them; two of
/// 2,048² build their atlas; one of 16,384² (within the rules, 1 GiB
/// decoded) is an error that says memory ran out.
#[cfg(target_os = "linux")]
#[test]
fn a_models_images_are_bounded_together_before_decoding() {
    let p = Project::empty();
    let big = one_bit_png(16_384);
    assert!(big.len() < 256 << 10, "{}", big.len());
    p.write_bytes("sources/big/four.glb", &textured_glb(&vec![big; 4]));
    let o = capped(
        &p,
        &[
            "inspect",
            "--atlas-png",
            "atlas.png",
            "sources/big/four.glb",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("(images[0], images[1], images[2], images[3]) hold 1073741824 texels together, more than the 268435456"),
        "{err}"
    );
    p.write_bytes(
        "sources/big/two.glb",
        &textured_glb(&vec![one_bit_png(2048); 2]),
    );
    let o = capped(
        &p,
        &["inspect", "--atlas-png", "atlas.png", "sources/big/two.glb"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // One image within every rule that needs more memory than the cap
    // leaves (1 GiB decoded) is an error naming it, not an abort.
    p.write_bytes("sources/big/one.glb", &textured_glb(&[one_bit_png(16_384)]));
    let o = capped(
        &p,
        &["inspect", "--atlas-png", "atlas.png", "sources/big/one.glb"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("sources/big/one.glb: at byte ")
            && err.contains("images[0]: decoding the image needs 1073741824 bytes of memory"),
        "{err}"
    );
}

/// [`simple_skin`] with UVs and a material showing `png`: a skinned,
/// textured model.
fn textured_skin(png: &[u8]) -> Vec<u8> {
    let (mut doc, mut bin) = simple_skin();
    let count = doc["accessors"][1]["count"].as_u64().unwrap() as usize;
    let uv_at = bin.len().next_multiple_of(4);
    bin.resize(uv_at, 0);
    for k in 0..count {
        for v in [(k % 2) as f32, (k / 2 % 2) as f32] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
    }
    let image_at = bin.len();
    bin.extend_from_slice(png);
    bin.resize(bin.len().next_multiple_of(4), 0);
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": uv_at, "byteLength": count * 8}));
    views.push(json!({"buffer": 0, "byteOffset": image_at, "byteLength": png.len()}));
    let (uv_view, image_view) = (views.len() - 2, views.len() - 1);
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(
        json!({"bufferView": uv_view, "componentType": 5126, "count": count, "type": "VEC2"}),
    );
    let uv = accessors.len() - 1;
    doc["images"] = json!([{"bufferView": image_view, "mimeType": "image/png"}]);
    doc["textures"] = json!([{"source": 0}]);
    doc["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    let prim = &mut doc["meshes"][0]["primitives"][0];
    prim["attributes"]["TEXCOORD_0"] = json!(uv);
    prim["material"] = json!(0);
    crate::gltf_support::make_glb(&doc, &bin)
}

/// A level's images are bounded as a sum across its models, each model's
/// counted from its headers before it is decoded: five models each
/// showing a 16,384² image (a quarter of the level's 2^30 texels, and
/// all a model may show) are refused at the fifth model's line, before
/// its image is decoded (the four before it passed the rule, and each of
/// their images was decoded alone: 1 GiB, so this runs without the cap).
#[cfg(target_os = "linux")]
#[test]
fn a_levels_images_are_bounded_together_across_its_models() {
    let p = Project::empty();
    p.write_bytes("sources/big/skin.glb", &simple_skin_glb());
    p.write_bytes(
        "sources/big/textured.glb",
        &textured_skin(&one_bit_png(16_384)),
    );
    let models = |n: usize| -> String {
        let mut m = String::from(
            "characters:\n  - level: wide\n    banks:\n      - id: b\n        clips:\n          - source: sources/big/skin.glb\n    models:\n",
        );
        for k in 0..n {
            m += &format!(
                "      - id: m{k}\n        source: sources/big/textured.glb\n        bank: b\n"
            );
        }
        m
    };
    p.write("manifests/level.yaml", &models(5));
    let o = p.kiln(&["build", "--quiet"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // The fifth model's source line: line 8 + 3 a model.
    assert!(err.contains("level.yaml:21:17:"), "{err}");
    assert!(
        err.contains("model \"m4\": sources/big/textured.glb: with its images the level's models show 1342177280 texels, more than the 1073741824"),
        "{err}"
    );
}

/// An accessor without a buffer view is zeros that nothing in the file
/// backs: 2^26 VEC3 positions (a 300-byte GLB, 805 MB of values) under
/// the 512 MiB cap are an error naming the accessor, not an abort.
#[cfg(target_os = "linux")]
#[test]
fn an_accessor_of_zeros_larger_than_the_memory_at_hand_is_an_error() {
    let p = Project::empty();
    let doc = json!({
        "asset": {"version": "2.0"},
        "accessors": [{"componentType": 5126, "count": 1 << 26, "type": "VEC3", "min": [0, 0, 0], "max": [0, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}]
    });
    p.write_bytes(
        "sources/big/zeros.glb",
        &crate::gltf_support::make_glb(&doc, &[]),
    );
    let o = capped(
        &p,
        &[
            "inspect",
            "--atlas-png",
            "atlas.png",
            "sources/big/zeros.glb",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("sources/big/zeros.glb: invalid glTF: at byte ")
            && err.contains(
                "attributes.POSITION: accessors[0]: its values need 805306368 bytes of memory"
            ),
        "{err}"
    );
}

/// A GLB of one mesh of `vertices` vertices (a strip of triangles) on a
/// node that moves for `seconds`.
fn long_moving_mesh(vertices: u32, seconds: f32) -> Vec<u8> {
    let mut bin = Vec::new();
    for i in 0..vertices {
        for v in [i as f32 * 1e-3, (i % 2) as f32 * 1e-3, 0.0f32] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
    }
    let positions = bin.len();
    for _ in 0..vertices {
        for v in [0.0f32, 0.0, 1.0] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
    }
    for i in 0..vertices - 2 {
        for v in [i, i + 1, i + 2] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
    }
    let indices = bin.len() - 2 * positions;
    let times_at = bin.len();
    for v in [0.0f32, seconds, 0., 0., 0., 1., 0., 0.] {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "strip", "mesh": 0}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": positions},
            {"buffer": 0, "byteOffset": 2 * positions, "byteLength": indices},
            {"buffer": 0, "byteOffset": times_at, "byteLength": 8},
            {"buffer": 0, "byteOffset": times_at + 8, "byteLength": 24},
            {"buffer": 0, "byteOffset": positions, "byteLength": positions}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
             "min": [0, 0, 0], "max": [vertices as f32 * 1e-3, 1e-3, 0]},
            {"bufferView": 1, "componentType": 5125, "count": 3 * (vertices - 2), "type": "SCALAR"},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [seconds]},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"},
            {"bufferView": 4, "componentType": 5126, "count": vertices, "type": "VEC3"}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 4}, "indices": 1}]}],
        "animations": [{"name": "move", "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
            "samplers": [{"input": 2, "output": 3, "interpolation": "LINEAR"}]}]
    });
    crate::gltf_support::make_glb(&doc, &bin)
}

/// A CGeo sequence whose file would be larger than kiln's reader reads
/// (65,536 vertices at 107,821 frames: about 170 GB) is refused at its
/// `rate_hz` before a frame is baked, under the cap and with nothing
/// written; the same mesh for 10 s is built.
#[cfg(target_os = "linux")]
#[test]
fn a_sequence_larger_than_the_reader_reads_is_refused_before_the_work() {
    let p = Project::empty();
    p.write_bytes("sources/big/strip.glb", &long_moving_mesh(65_536, 599.0));
    p.write(
        "manifests/seq.yaml",
        "cgeo_sequences:\n  - id: strip\n    source: sources/big/strip.glb\n    animation: move\n    rate_hz: 180\n",
    );
    let o = capped(&p, &["build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("seq.yaml:5:"), "at rate_hz: {err}");
    assert!(
        err.contains("107821 frames of")
            && err.contains("more than the 17179869184 bytes a CGeo file may have"),
        "{err}"
    );
    assert!(!p.path("out/cgeo/strip.cgeo").exists());
    p.write_bytes("sources/big/strip.glb", &long_moving_mesh(65_536, 0.1));
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A state file grown to 900 MiB (a hole after its records) is read a
/// frame at a time up to the first frame that is not one: the no-op build
/// under the 512 MiB cap still knows every job, and the next build that
/// saves rewrites the journal without the hole. A hash cache grown the same
/// way (the details, the plan summary) is dropped or cut at its first
/// bad frame, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn a_state_file_grown_huge_is_read_as_far_as_its_records() {
    let p = Project::empty();
    p.write_bytes("sources/big/skin.glb", &simple_skin_glb());
    pose_cache_of(&p, "skin.glb");
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let journal = p.path("out/.kiln/journal");
    let small = fs::metadata(&journal).unwrap().len();
    for name in ["journal", "details", "plan"] {
        let f = fs::OpenOptions::new()
            .write(true)
            .open(p.path(&format!("out/.kiln/{name}")))
            .unwrap();
        f.set_len(BIG).unwrap();
    }
    let o = capped(&p, &["build", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        report["totals"]["fresh"], 1,
        "the record survived: {report}"
    );
    // A change rebuilds the job and saves the state: the journal is
    // rewritten with its records only.
    p.write(
        "manifests/big.yaml",
        &POSE_CACHE
            .replace("SOURCE", "skin.glb")
            .replace("rate_hz: 30", "rate_hz: 24"),
    );
    let o = capped(&p, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let now = fs::metadata(&journal).unwrap().len();
    assert!(now < 4 * small + 4096, "{now} bytes, was {small}");
}

//! The material stage (`bake::atlas`, through `pipeline::sources::
//! material_stage` with the importer's decoders): for every vertex of the corpus characters and of
//! fixtures written here (REPEAT over several tiles, MIRRORED_REPEAT,
//! CLAMP_TO_EDGE, a rotated texture transform, vertex colours), sampling
//! the original material at the original UV equals sampling the atlas at
//! the new UV. The sampler here is the test's own (bilinear in linear
//! light, glTF's wrap rules, the KHR_texture_transform GLSL), not kiln's.

// Per-channel loops index parallel arrays.
#![allow(clippy::needless_range_loop)]

use crate::alloc_support;
#[allow(dead_code)]
use crate::gltf_support;
use crate::pillow_support;

use alloc_support::largest_alloc_in;
use gltf_support::Fixture;
use serde_json::json;

use kiln::bake::atlas::{self, Atlas, RegionKind, Settings};
use kiln::import::{gltf, image};
use kiln::model::material::{Material, Meshes, Primitive, Rgba8, Wrap};
use kiln::pipeline::sources::IMAGES;

/// The material stage with the importer's image decoders, as a build
/// runs it.
fn material_stage(
    meshes: &Meshes,
    prims: &[&Primitive],
    settings: &Settings,
) -> Result<Atlas, String> {
    atlas::material_stage(meshes, prims, settings, &IMAGES)
}

/// Tolerance in sRGB units (0..255) at a region of scale 1: the atlas
/// stores each texel rounded to 8 bits once (half a unit), and bilinear
/// filtering mixes four of them.
const TOLERANCE: f64 = 1.0;

fn to_linear(s: f64) -> f64 {
    let s = s / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(l: f64) -> f64 {
    let s = if l <= 0.0031308 {
        12.92 * l
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    s * 255.0
}

fn wrap(x: i64, n: i64, mode: Wrap) -> u32 {
    (match mode {
        Wrap::Repeat => x.rem_euclid(n),
        Wrap::MirroredRepeat => {
            let m = x.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
        Wrap::ClampToEdge => x.clamp(0, n - 1),
    }) as u32
}

/// Bilinear filtering in linear light, as a GPU with an sRGB texture does.
fn bilinear(im: &Rgba8, modes: [Wrap; 2], u: f64, v: f64) -> [f64; 3] {
    let x = u * f64::from(im.width) - 0.5;
    let y = v * f64::from(im.height) - 0.5;
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let mut out = [0.0; 3];
    for (dy, wy) in [(0, 1.0 - fy), (1, fy)] {
        for (dx, wx) in [(0, 1.0 - fx), (1, fx)] {
            let tx = wrap(x0 as i64 + dx, i64::from(im.width), modes[0]);
            let ty = wrap(y0 as i64 + dy, i64::from(im.height), modes[1]);
            let i = (ty as usize * im.width as usize + tx as usize) * 4;
            for c in 0..3 {
                out[c] += wx * wy * to_linear(f64::from(im.pixels[i + c]));
            }
        }
    }
    out
}

/// The KHR_texture_transform GLSL: translation * rotation * scale, with
/// rotation = mat3(cos, sin, 0, -sin, cos, 0, 0, 0, 1) in column order.
fn transform(m: &Material, uv: [f32; 2]) -> [f64; 2] {
    let t = m.base_color_texture.unwrap().transform;
    let (u, v) = (
        f64::from(uv[0]) * f64::from(t.scale[0]),
        f64::from(uv[1]) * f64::from(t.scale[1]),
    );
    let r = f64::from(t.rotation);
    [
        r.cos() * u - r.sin() * v + f64::from(t.offset[0]),
        r.sin() * u + r.cos() * v + f64::from(t.offset[1]),
    ]
}

/// The original material's colour (sRGB units) at a vertex's attributes.
fn original(
    meshes: &Meshes,
    images: &[Option<Rgba8>],
    p: &Primitive,
    uv: &[[f32; 2]],
    color: [f32; 4],
) -> [f64; 3] {
    let default = Material::default_material();
    let m = p.material.map_or(&default, |i| &meshes.materials[i]);
    let f = m.base_color_factor;
    let tex = match m.base_color_texture {
        None => [1.0; 3],
        Some(t) => {
            let [u, v] = transform(m, uv[t.tex_coord]);
            bilinear(
                images[t.image].as_ref().unwrap(),
                [t.sampler.wrap_s, t.sampler.wrap_t],
                u,
                v,
            )
        }
    };
    [0, 1, 2].map(|c| to_srgb(tex[c] * f64::from(f[c]) * f64::from(color[c])))
}

fn atlas_at(a: &Atlas, uv: [f32; 2]) -> [f64; 3] {
    bilinear(
        &a.image,
        [Wrap::ClampToEdge; 2],
        f64::from(uv[0]),
        f64::from(uv[1]),
    )
    .map(to_srgb)
}

fn decode_images(meshes: &Meshes) -> Vec<Option<Rgba8>> {
    meshes
        .images
        .iter()
        .map(|i| i.as_ref().map(|i| image::decode(&i.bytes).unwrap()))
        .collect()
}

fn load(bytes: &[u8]) -> Meshes {
    gltf::import_meshes(gltf::Source::parse(bytes).unwrap(), &[], &[], None).unwrap()
}

fn stage(meshes: &Meshes, settings: &Settings) -> Atlas {
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    material_stage(meshes, &prims, settings).unwrap()
}

/// Checks every vertex (and every triangle's centroid, for regions whose
/// UV map is affine) of regions at scale 1; returns the worst difference.
fn check_samples(meshes: &Meshes, a: &Atlas) -> f64 {
    let images = decode_images(meshes);
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let mut worst = 0.0f64;
    let mut checked = 0;
    for (p, r) in prims.iter().zip(&a.primitives) {
        let region = &a.regions[r.region];
        if region.scale != [1.0, 1.0] {
            continue;
        }
        let attrs = |v: usize| -> (Vec<[f32; 2]>, [f32; 4]) {
            (
                p.tex_coords.iter().map(|set| set[v]).collect(),
                p.colors.as_ref().map_or([1.0; 4], |c| c[v]),
            )
        };
        for (k, &v) in r.vertices.iter().enumerate() {
            let (uv, color) = attrs(v as usize);
            let want = original(meshes, &images, p, &uv, color);
            let got = atlas_at(a, r.uv[k]);
            for c in 0..3 {
                worst = worst.max((want[c] - got[c]).abs());
            }
            checked += 1;
        }
        let clamped = meshes
            .materials
            .get(p.material.unwrap_or(usize::MAX))
            .and_then(|m| m.base_color_texture)
            .is_some_and(|t| {
                t.sampler.wrap_s == Wrap::ClampToEdge || t.sampler.wrap_t == Wrap::ClampToEdge
            });
        if region.kind == RegionKind::Textured && p.colors.is_none() && !clamped {
            // Inside triangles the map is affine: centroids match too.
            // (Not under CLAMP_TO_EDGE, whose UVs are clamped at the
            // vertices, as the stage's rule says, not per fragment.)
            for tri in r.indices.as_chunks::<3>().0 {
                let n = p.tex_coords.len();
                let uv: Vec<[f32; 2]> = (0..n)
                    .map(|s| {
                        let t = tri.map(|v| p.tex_coords[s][v as usize]);
                        [
                            (t[0][0] + t[1][0] + t[2][0]) / 3.0,
                            (t[0][1] + t[1][1] + t[2][1]) / 3.0,
                        ]
                    })
                    .collect();
                let nu = tri.map(|v| r.uv[v as usize]);
                let new = [
                    (nu[0][0] + nu[1][0] + nu[2][0]) / 3.0,
                    (nu[0][1] + nu[1][1] + nu[2][1]) / 3.0,
                ];
                let want = original(meshes, &images, p, &uv, [1.0; 4]);
                let got = atlas_at(a, new);
                for c in 0..3 {
                    worst = worst.max((want[c] - got[c]).abs());
                }
            }
        }
    }
    assert!(checked > 0, "no vertex was checked");
    worst
}

fn corpus(name: &str) -> Vec<u8> {
    gltf_support::read(name)
}

#[test]
fn corpus_vertices_sample_the_same_colour_in_the_atlas() {
    for name in [
        "glb/CesiumMan-blender.glb",
        "glb/Fox.glb",
        "glb/RobotExpressive.glb",
        "glb/MorphStressTest.glb",
        "glb-meshopt/CesiumMan-blender.q.glb",
        "glb-meshopt/Fox.q.glb",
        "glb-meshopt/MorphStressTest.q.glb",
        "glb-meshopt/RobotExpressive.q.glb",
    ] {
        let meshes = load(&corpus(name));
        let a = stage(&meshes, &Settings::default());
        let worst = check_samples(&meshes, &a);
        assert!(
            worst <= TOLERANCE,
            "{name}: worst difference {worst:.3} sRGB units"
        );
        assert!(
            a.image.pixels.chunks_exact(4).all(|p| p[3] == 255),
            "{name}: not opaque"
        );
    }
}

#[test]
fn corpus_atlases_have_the_expected_regions() {
    let cesium = stage(
        &load(&corpus("glb/CesiumMan-blender.glb")),
        &Settings::default(),
    );
    assert_eq!(cesium.regions.len(), 1);
    assert_eq!(cesium.regions[0].rect, [4, 4, 1024, 1024]);
    assert_eq!((cesium.image.width, cesium.image.height), (1032, 1032));
    assert_eq!(cesium.fill_ratio(), (1024.0 * 1024.0) / (1032.0 * 1032.0));
    let robot = stage(
        &load(&corpus("glb/RobotExpressive.glb")),
        &Settings::default(),
    );
    assert_eq!(
        robot.regions.len(),
        3,
        "three factor-only materials, one solid region each"
    );
    assert!(robot.regions.iter().all(|r| r.kind == RegionKind::Solid));
    assert_eq!((robot.image.width, robot.image.height), (12, 36));
    assert_eq!(robot.fill_ratio(), 3.0 * 16.0 / (12.0 * 36.0));
    let morph = stage(
        &load(&corpus("glb/MorphStressTest.glb")),
        &Settings::default(),
    );
    assert_eq!(morph.regions.len(), 2);
    // Base repeats TinyGrid over 15 x 5 tiles: 8 kept, downscaled, said.
    assert_eq!(morph.regions[0].tiles, [15, 5]);
    assert!((morph.regions[0].scale[0] - 8.0 / 15.0).abs() < 1e-9);
    assert!(
        morph
            .warnings
            .iter()
            .any(|w| w.contains("max_tile_repeat 8")),
        "{:?}",
        morph.warnings
    );
}

#[test]
fn a_downscaled_region_keeps_the_mean_colour() {
    // MorphStressTest's Base: the box filter in linear light preserves
    // the texture's mean over whole tiles.
    let meshes = load(&corpus("glb/MorphStressTest.glb"));
    let a = stage(&meshes, &Settings::default());
    let images = decode_images(&meshes);
    let tex = images[meshes.materials[0].base_color_texture.unwrap().image]
        .as_ref()
        .unwrap();
    let mean = |im: &Rgba8, rect: [u32; 4]| -> [f64; 3] {
        let mut s = [0.0; 3];
        for y in rect[1]..rect[1] + rect[3] {
            for x in rect[0]..rect[0] + rect[2] {
                let i = (y as usize * im.width as usize + x as usize) * 4;
                for c in 0..3 {
                    s[c] += to_linear(f64::from(im.pixels[i + c]));
                }
            }
        }
        s.map(|v| to_srgb(v / f64::from(rect[2] * rect[3])))
    };
    let want = mean(tex, [0, 0, tex.width, tex.height]);
    let got = mean(&a.image, a.regions[0].rect);
    for c in 0..3 {
        assert!((want[c] - got[c]).abs() < 0.6, "{want:?} vs {got:?}");
    }
}

/// A fixture: one quad (two triangles) with the given UVs and colours,
/// a material of `factor` and, if `texture`, an image with a sampler.
struct Quad {
    uv: [[f32; 2]; 4],
    colors: Option<[[f32; 4]; 4]>,
    factor: [f32; 4],
    texture: Option<(Rgba8, [u32; 2], Option<serde_json::Value>)>,
}

fn quad_glb(q: &Quad) -> Vec<u8> {
    let mut f = Fixture::new();
    let pos = f.floats(&[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.], "VEC3", 3);
    let uv = f.floats(q.uv.as_flattened(), "VEC2", 2);
    let idx = f.accessor(
        &[0u16, 1, 2, 0, 2, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect::<Vec<_>>(),
        5123,
        "SCALAR",
        6,
        false,
    );
    let mut attributes = json!({"POSITION": pos, "TEXCOORD_0": uv});
    if let Some(c) = &q.colors {
        attributes["COLOR_0"] = json!(f.floats(c.as_flattened(), "VEC4", 4));
    }
    let mut pbr = json!({"baseColorFactor": q.factor});
    if let Some((im, wraps, ext)) = &q.texture {
        let png = image::encode_png(im).unwrap();
        let view = f.view(&png, None);
        f.json["images"] =
            json!([{"bufferView": view, "mimeType": "image/png", "name": "fixture"}]);
        f.json["samplers"] = json!([{"wrapS": wraps[0], "wrapT": wraps[1]}]);
        f.json["textures"] = json!([{"source": 0, "sampler": 0}]);
        let mut info = json!({"index": 0});
        if let Some(e) = ext {
            info["extensions"] = json!({"KHR_texture_transform": e});
        }
        pbr["baseColorTexture"] = info;
    }
    f.json["materials"] = json!([{"name": "fixture", "pbrMetallicRoughness": pbr}]);
    f.push(
        "meshes",
        json!({"primitives": [{"attributes": attributes, "indices": idx, "material": 0}]}),
    );
    f.push("nodes", json!({"mesh": 0}));
    f.glb()
}

/// A w x h image of distinct, non-repeating colours.
fn noise(w: u32, h: u32, seed: u32) -> Rgba8 {
    let mut s = seed.wrapping_mul(2_654_435_761) | 1;
    let mut pixels = Vec::new();
    for _ in 0..w * h {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        let [r, g, b, _] = s.to_le_bytes();
        pixels.extend_from_slice(&[r, g, b, 255]);
    }
    Rgba8 {
        width: w,
        height: h,
        pixels,
    }
}

const REPEAT: u32 = 10497;
const MIRROR: u32 = 33648;
const CLAMP: u32 = 33071;

fn check_quad(q: &Quad, settings: &Settings) -> Atlas {
    let meshes = load(&quad_glb(q));
    let a = stage(&meshes, settings);
    let worst = check_samples(&meshes, &a);
    assert!(worst <= TOLERANCE, "worst difference {worst:.3}");
    a
}

#[test]
fn repeat_over_several_tiles_is_tiled_into_the_region() {
    let q = Quad {
        uv: [[0.0, 0.0], [3.0, 0.0], [3.0, 2.0], [0.0, 2.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(5, 4, 1), [REPEAT, REPEAT], None)),
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].tiles, [3, 2]);
    assert_eq!(&a.regions[0].rect[2..], [15, 8]);
    // Negative tiles too.
    let q = Quad {
        uv: [[-1.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-1.5, 0.5]],
        ..q
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].tiles, [3, 2], "tiles -2..1 and -1..1");
}

#[test]
fn mirrored_repeat_is_mirrored_into_the_region() {
    let q = Quad {
        uv: [[-1.0, 0.0], [2.0, 0.0], [2.0, 1.5], [-1.0, 1.5]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(6, 3, 2), [MIRROR, MIRROR], None)),
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].tiles, [3, 2]);
}

#[test]
fn clamp_to_edge_clamps_the_uvs() {
    let q = Quad {
        uv: [[-0.5, -0.25], [1.5, -0.25], [1.5, 1.25], [-0.5, 1.25]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(4, 4, 3), [CLAMP, REPEAT], None)),
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(
        a.regions[0].tiles,
        [1, 3],
        "clamped u: one copy; v -0.25..1.25: tiles -1..2"
    );
}

#[test]
fn a_rotated_texture_transform_is_applied() {
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [0.8, 0.6, 1.0, 1.0],
        texture: Some((
            noise(8, 8, 4),
            [REPEAT, REPEAT],
            Some(json!({"offset": [0.25, -0.5], "rotation": 0.7, "scale": [1.5, 2.0]})),
        )),
    };
    check_quad(&q, &Settings::default());
}

#[test]
fn vertex_colours_are_baked() {
    let colors = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    // Untextured: a cell per triangle, one vertex per corner.
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: Some(colors),
        factor: [0.5, 1.0, 1.0, 1.0],
        texture: None,
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].kind, RegionKind::Baked);
    assert_eq!(a.primitives[0].vertices, [0, 1, 2, 0, 2, 3]);
    // Textured and coloured.
    let q = Quad {
        texture: Some((noise(4, 4, 5), [REPEAT, REPEAT], None)),
        ..q
    };
    check_quad(&q, &Settings::default());
    // A constant colour folds into the factor: no baking.
    let q = Quad {
        colors: Some([[0.5, 0.5, 0.5, 1.0]; 4]),
        ..q
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].kind, RegionKind::Textured);
}

#[test]
fn the_factor_multiplies_in_linear_light() {
    // A 50 % grey texture (sRGB byte 128) times 0.5 is sRGB 92, not 64.
    let grey = Rgba8 {
        width: 2,
        height: 2,
        pixels: [128, 128, 128, 255].repeat(4),
    };
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [0.5, 0.5, 0.5, 1.0],
        texture: Some((grey, [REPEAT, REPEAT], None)),
    };
    let a = check_quad(&q, &Settings::default());
    let [x, y, ..] = a.regions[0].rect;
    let i = (y as usize * a.image.width as usize + x as usize) * 4;
    assert_eq!(&a.image.pixels[i..i + 3], [92, 92, 92]);
    // An untextured material of factor 0.5 is sRGB 188.
    let q = Quad { texture: None, ..q };
    let a = check_quad(&q, &Settings::default());
    let [x, y, ..] = a.regions[0].rect;
    let i = (y as usize * a.image.width as usize + x as usize) * 4;
    assert_eq!(&a.image.pixels[i..i + 3], [188, 188, 188]);
}

#[test]
fn no_texel_of_another_region_lies_within_the_padding() {
    // Twenty primitives of distinct solid colours and one texture: every
    // texel within `padding` of a region is that region's own.
    let mut f = Fixture::new();
    let pos = f.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3", 3);
    let mut materials = Vec::new();
    let mut prims = Vec::new();
    for k in 0..20 {
        let c = k as f32 / 20.0;
        materials.push(json!({"pbrMetallicRoughness": {"baseColorFactor": [c, 1.0 - c, (k % 3) as f32 / 2.0, 1.0]}}));
        prims.push(json!({"attributes": {"POSITION": pos}, "material": k}));
    }
    f.json["materials"] = json!(materials);
    f.push("meshes", json!({"primitives": prims}));
    f.push("nodes", json!({"mesh": 0}));
    let meshes = load(&f.glb());
    for padding in [0, 1, 4, 7] {
        let settings = Settings {
            padding,
            ..Settings::default()
        };
        let a = stage(&meshes, &settings);
        assert_eq!(a.regions.len(), 20);
        for r in &a.regions {
            let [x, y, w, h] = r.rect;
            let at = |x: u32, y: u32| {
                let i = (y as usize * a.image.width as usize + x as usize) * 4;
                [
                    a.image.pixels[i],
                    a.image.pixels[i + 1],
                    a.image.pixels[i + 2],
                ]
            };
            let own = at(x, y);
            for yy in y - padding..y + h + padding {
                for xx in x - padding..x + w + padding {
                    assert_eq!(at(xx, yy), own, "padding {padding}: texel ({xx}, {yy})");
                }
            }
        }
    }
}

#[test]
fn regions_that_do_not_fit_are_scaled_down_and_said() {
    let meshes = load(&corpus("glb/CesiumMan-blender.glb"));
    let a = stage(
        &meshes,
        &Settings {
            max_size: 512,
            ..Settings::default()
        },
    );
    assert!(a.image.width <= 512 && a.image.height <= 512);
    assert!(a.fit_scale < 1.0 && a.fit_scale > 0.45, "{}", a.fit_scale);
    let r = a.regions[0].rect;
    let said = format!(
        "is drawn with {} x {} (use fewer or smaller textures",
        r[2], r[3]
    );
    assert!(
        a.warnings
            .iter()
            .any(|w| w.contains("scaled by")
                && w.contains("the largest, material \"Cesium_Man-effect\" (1024 x 1024 texels, image 0 over 1 x 1 tiles)")
                && w.contains(&said)),
        "{:?}",
        a.warnings
    );
    // Every vertex still lands inside its region.
    for (p, r) in a.primitives.iter().zip([a.regions[0].rect]) {
        for uv in &p.uv {
            let x = f64::from(uv[0]) * f64::from(a.image.width);
            let y = f64::from(uv[1]) * f64::from(a.image.height);
            assert!(x >= f64::from(r[0]) - 1e-3 && x <= f64::from(r[0] + r[2]) + 1e-3);
            assert!(y >= f64::from(r[1]) - 1e-3 && y <= f64::from(r[1] + r[3]) + 1e-3);
        }
    }
}

#[test]
fn the_stage_gives_the_same_bytes_every_time_and_on_every_thread() {
    // Golden hashes: a change in the stage's output fails here (and must
    // bump the characters kind's VERSION).
    let golden = [
        (
            "glb/CesiumMan-blender.glb",
            "fe44f7fb45d3e09d24923fb7e0b9cf5eb6ece413d6051739c9a20a63b0c76372",
        ),
        (
            "glb/Fox.glb",
            "e9902eaa9263486e8dab18fde625c77830773becfe8c82bb2be35bd9db3d0b35",
        ),
        (
            "glb/RobotExpressive.glb",
            "583fd0543e06db5163b0521ce794e2cc800ab78d9cb41748e26a9f63122c9b7a",
        ),
        (
            "glb/MorphStressTest.glb",
            "7527c6f2e6c366bcf653f87d592c361aebb26ef480e43dc5c27e39a0a643a6f2",
        ),
    ];
    let hashes: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = golden
            .iter()
            .map(|(name, _)| {
                s.spawn(move || {
                    let a = stage(&load(&corpus(name)), &Settings::default());
                    gltf_support::sha256_hex(&atlas::encode_qoi(&a.image))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((name, _), got) in golden.iter().zip(&hashes) {
        let again = stage(&load(&corpus(name)), &Settings::default());
        assert_eq!(
            &gltf_support::sha256_hex(&atlas::encode_qoi(&again.image)),
            got,
            "{name}"
        );
    }
    let got: Vec<(&str, &str)> = golden
        .iter()
        .zip(&hashes)
        .map(|((n, _), h)| (*n, h.as_str()))
        .collect();
    assert_eq!(got, golden);
}

#[test]
#[ignore = "full tier: Pillow"]
fn pillow_decodes_every_atlas_qoi_to_the_atlas() {
    let mut files = Vec::new();
    let mut want = Vec::new();
    // The corpus atlases, and those of fixtures: a mirrored, tinted
    // texture and vertex colours baked per triangle.
    let mut sources: Vec<Vec<u8>> = [
        "glb/CesiumMan-blender.glb",
        "glb/Fox.glb",
        "glb/RobotExpressive.glb",
        "glb/MorphStressTest.glb",
    ]
    .iter()
    .map(|n| corpus(n))
    .collect();
    sources.push(quad_glb(&Quad {
        uv: [[-1.0, 0.0], [2.0, 0.0], [2.0, 1.5], [-1.0, 1.5]],
        colors: None,
        factor: [0.3, 0.6, 0.9, 1.0],
        texture: Some((noise(6, 3, 2), [MIRROR, MIRROR], None)),
    }));
    sources.push(coloured_grid(12));
    for glb in &sources {
        let a = stage(&load(glb), &Settings::default());
        files.push(atlas::encode_qoi(&a.image));
        want.extend_from_slice(&a.image.pixels);
    }
    let theirs = pillow_support::qoi_rgba(&files);
    assert!(theirs == want, "Pillow's pixels differ from the atlas");
}

#[test]
fn an_image_bomb_is_refused_before_allocating() {
    // A PNG whose header claims 20,000 x 20,000 inside a small GLB.
    let mut png = image::encode_png(&noise(2, 2, 9)).unwrap();
    png[16..20].copy_from_slice(&20_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&20_000u32.to_be_bytes());
    let crc = crc32fast::hash(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(2, 2, 9), [REPEAT, REPEAT], None)),
    };
    let glb = quad_glb(&q);
    let mut meshes = load(&glb);
    meshes.images[0].as_mut().unwrap().bytes = png;
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let (r, largest) = largest_alloc_in(|| material_stage(&meshes, &prims, &Settings::default()));
    let e = r.unwrap_err();
    assert!(
        e.contains("images[0] \"fixture\"") && e.contains("16384"),
        "{e}"
    );
    assert!(largest < 1 << 20, "allocated {largest} bytes");
}

/// An image's decode error names the byte of the file it is about: in a
/// GLB's BIN chunk, the file's own byte; in an image file beside a
/// `.gltf`, that file's byte; decoded from a `data:` URI, the image's JSON
/// and the byte of the decoded image.
#[test]
fn an_images_errors_name_the_byte_of_the_file_that_holds_it() {
    use kiln::model::material::ImageOrigin;
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(2, 2, 9), [REPEAT, REPEAT], None)),
    };
    // The PNG's width (byte 16 of the image) over the side limit, its CRC
    // kept right, in place in the GLB.
    let wide = |png: &mut [u8]| {
        png[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        let crc = crc32fast::hash(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
    };
    let refused = |meshes: &Meshes| {
        let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
        material_stage(meshes, &prims, &Settings::default()).unwrap_err()
    };
    let mut glb = quad_glb(&q);
    let start = glb
        .windows(8)
        .position(|w| w == b"\x89PNG\r\n\x1a\n")
        .unwrap();
    wide(&mut glb[start..]);
    let meshes = load(&glb);
    let origin = &meshes.images[0].as_ref().unwrap().origin;
    assert_eq!(*origin, ImageOrigin::InFile { at: start as u64 });
    let e = refused(&meshes);
    assert!(
        e.starts_with(&format!(
            "at byte {}: images[0] \"fixture\": image is 20000 x 2",
            start + 16
        )),
        "{e}"
    );

    // The same image as a file beside a .gltf, and as a data: uri.
    let (mut json, bin) = gltf_support::split_glb(&glb);
    let view = json["images"][0]["bufferView"].as_u64().unwrap() as usize;
    let v = &json["bufferViews"][view];
    let from = v["byteOffset"].as_u64().unwrap_or(0) as usize;
    let png = bin[from..from + v["byteLength"].as_u64().unwrap() as usize].to_vec();
    json["buffers"][0]["uri"] = json!("quad.bin");
    json["images"][0] = json!({"uri": "skin.png", "name": "fixture"});
    let text = serde_json::to_vec(&json).unwrap();
    let files = [("skin.png".to_string(), png.clone())];
    let buffers = [("quad.bin".to_string(), bin.clone())];
    let source = gltf::Source::parse(&text).unwrap();
    let meshes = gltf::import_meshes(source, &buffers, &files, None).unwrap();
    assert_eq!(
        meshes.images[0].as_ref().unwrap().origin,
        ImageOrigin::Beside {
            name: "skin.png".into(),
            at: 0
        }
    );
    let e = refused(&meshes);
    assert!(
        e.starts_with("images[0] \"fixture\", in skin.png: at byte 16: image is 20000"),
        "{e}"
    );

    // In a view of a buffer file beside the .gltf.
    json["images"][0] = json!({"bufferView": view, "mimeType": "image/png", "name": "fixture"});
    let text = serde_json::to_vec(&json).unwrap();
    let source = gltf::Source::parse(&text).unwrap();
    let meshes = gltf::import_meshes(source, &buffers, &[], None).unwrap();
    assert_eq!(
        meshes.images[0].as_ref().unwrap().origin,
        ImageOrigin::Beside {
            name: "quad.bin".into(),
            at: from as u64
        }
    );
    let e = refused(&meshes);
    assert!(
        e.starts_with(&format!(
            "images[0] \"fixture\", in quad.bin: at byte {}: image is 20000",
            from + 16
        )),
        "{e}"
    );

    use base64::Engine as _;
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    json["images"][0] = json!({"uri": uri, "name": "fixture"});
    let text = serde_json::to_vec(&json).unwrap();
    let source = gltf::Source::parse(&text).unwrap();
    let meshes = gltf::import_meshes(source, &buffers, &[], None).unwrap();
    // The image's object, first in the images array.
    let json_at = String::from_utf8_lossy(&text)
        .find("\"images\":[{")
        .unwrap()
        + 10;
    assert_eq!(
        meshes.images[0].as_ref().unwrap().origin,
        ImageOrigin::Decoded {
            json_at: json_at as u64
        }
    );
    let e = refused(&meshes);
    assert!(
        e.starts_with(&format!("at byte {json_at}: images[0] \"fixture\", decoded from a data: uri or a compressed view: at byte 16 of the image: image is 20000")),
        "{e}"
    );
}

#[test]
fn settings_out_of_range_are_refused() {
    let meshes = load(&corpus("glb/RobotExpressive.glb"));
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    for (s, what) in [
        (
            Settings {
                max_size: 2049,
                ..Settings::default()
            },
            "max_size",
        ),
        (
            Settings {
                max_size: 0,
                ..Settings::default()
            },
            "max_size",
        ),
        (
            Settings {
                padding: 65,
                ..Settings::default()
            },
            "padding",
        ),
        (
            Settings {
                max_tile_repeat: 0,
                ..Settings::default()
            },
            "max_tile_repeat",
        ),
    ] {
        let e = material_stage(&meshes, &prims, &s).unwrap_err();
        assert!(e.contains(what), "{e}");
    }
    let ok = Settings {
        max_size: 2048,
        padding: 64,
        max_tile_repeat: 64,
    };
    material_stage(&meshes, &prims, &ok).unwrap();
}

/// A grid mesh of `n` x `n` quads with a distinct vertex colour each.
fn coloured_grid(n: usize) -> Vec<u8> {
    let mut f = Fixture::new();
    let (mut pos, mut col, mut idx) = (vec![], vec![], vec![]);
    for y in 0..=n {
        for x in 0..=n {
            pos.extend_from_slice(&[x as f32, y as f32, 0.0]);
            let k = (y * (n + 1) + x) as f32;
            col.extend_from_slice(&[(k * 0.37) % 1.0, (k * 0.11) % 1.0, (k * 0.73) % 1.0, 1.0]);
        }
    }
    for y in 0..n {
        for x in 0..n {
            let a = (y * (n + 1) + x) as u32;
            let (b, c, d) = (a + 1, a + n as u32 + 2, a + n as u32 + 1);
            idx.extend_from_slice(&[a, b, c, a, c, d]);
        }
    }
    let p = f.floats(&pos, "VEC3", 3);
    let c = f.floats(&col, "VEC4", 4);
    let bytes: Vec<u8> = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
    let i = f.accessor(&bytes, 5125, "SCALAR", idx.len(), false);
    f.json["materials"] = json!([{"name": "painted"}]);
    f.push("meshes", json!({"primitives": [{"attributes": {"POSITION": p, "COLOR_0": c}, "indices": i, "material": 0}]}));
    f.push("nodes", json!({"mesh": 0}));
    f.glb()
}

#[test]
fn baked_cells_shrink_to_fit_and_stay_exact_at_the_corners() {
    let meshes = load(&coloured_grid(40)); // 3,200 triangles
    let full = stage(&meshes, &Settings::default());
    assert_eq!(full.fit_scale, 1.0);
    assert_eq!(&full.regions[0].rect[2..], [57 * 8, 57 * 8]);
    let small = stage(
        &meshes,
        &Settings {
            max_size: 256,
            ..Settings::default()
        },
    );
    assert!(small.fit_scale < 1.0);
    assert!(small.image.width <= 256 && small.image.height <= 256);
    for a in [&full, &small] {
        let worst = check_samples(&meshes, a);
        assert!(worst <= TOLERANCE, "worst difference {worst:.3}");
        assert_eq!(a.primitives[0].vertices.len(), 3200 * 3);
    }
}

#[test]
fn broken_inputs_are_clear_errors() {
    let base = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(2, 2, 9), [REPEAT, REPEAT], None)),
    };
    let run = |glb: Vec<u8>| -> String {
        let meshes = match gltf::import_meshes(gltf::Source::parse(&glb).unwrap(), &[], &[], None) {
            Ok(m) => m,
            Err(e) => return e.to_string(),
        };
        let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
        material_stage(&meshes, &prims, &Settings::default()).unwrap_err()
    };
    // UVs beyond 2^24 tiles.
    let base_glb = quad_glb(&base);
    let far = Quad {
        uv: [[0.0, 0.0], [3.0e7, 0.0], [1.0, 1.0], [0.0, 1.0]],
        texture: Some((noise(2, 2, 9), [REPEAT, REPEAT], None)),
        ..base
    };
    let e = run(quad_glb(&far));
    assert!(e.contains("primitive 0") && e.contains("beyond"), "{e}");
    // A texture on TEXCOORD_1, which the primitive lacks.
    let (mut v, bin) = gltf_support::split_glb(&base_glb);
    v["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = json!(1);
    let e = run(gltf_support::make_glb(&v, &bin));
    assert!(e.contains("TEXCOORD_1"), "{e}");
    // A factor above 1, an unknown wrap mode, a texture without a PNG or
    // JPEG source, an alpha mode that does not exist.
    for (edit, want) in [
        (
            json!({"materials": [{"pbrMetallicRoughness": {"baseColorFactor": [2.0, 1.0, 1.0, 1.0]}}]}),
            "baseColorFactor[0]",
        ),
        (json!({"samplers": [{"wrapS": 1234}]}), "wrapS"),
        (
            json!({"textures": [{"sampler": 0}]}),
            "no PNG or JPEG source",
        ),
        (json!({"materials": [{"alphaMode": "GLOW"}]}), "alphaMode"),
    ] {
        let mut v = v.clone();
        for (k, val) in edit.as_object().unwrap() {
            v[k] = val.clone();
        }
        if want == "no PNG or JPEG source" {
            v["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = json!(0);
        }
        let e = run(gltf_support::make_glb(&v, &bin));
        assert!(e.contains(want), "{want}: {e}");
    }
    // An image that is not a PNG or JPEG.
    let mut meshes = load(&base_glb);
    meshes.images[0].as_mut().unwrap().bytes = b"GIF89a".to_vec();
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let e = material_stage(&meshes, &prims, &Settings::default()).unwrap_err();
    assert!(e.contains("not a PNG or JPEG"), "{e}");
}

#[test]
fn blend_and_mask_are_warnings_that_name_the_material() {
    let mut v = gltf_support::split_glb(&quad_glb(&Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0, 1.0, 1.0, 0.5],
        texture: None,
    }));
    v.0["materials"][0]["alphaMode"] = json!("BLEND");
    let a = stage(
        &load(&gltf_support::make_glb(&v.0, &v.1)),
        &Settings::default(),
    );
    assert_eq!(a.warnings.len(), 1, "{:?}", a.warnings);
    assert!(
        a.warnings[0].contains("\"fixture\"") && a.warnings[0].contains("BLEND"),
        "{:?}",
        a.warnings
    );
    assert!(a.image.pixels.chunks_exact(4).all(|p| p[3] == 255));
}

#[test]
fn the_fuzz_property_holds_on_a_textured_quad() {
    // What fuzz/fuzz_targets/atlas_stage.rs asserts, over deterministic
    // inputs: every byte of a small textured, vertex-coloured GLB set to a
    // few values; the stage never panics, and what it makes is opaque with
    // every UV inside the atlas.
    let glb = quad_glb(&Quad {
        uv: [[-0.5, 0.0], [2.0, 0.0], [2.0, 1.5], [-0.5, 1.5]],
        colors: Some([
            [1.0, 0.5, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [1.0; 4],
        ]),
        factor: [0.9, 0.8, 0.7, 1.0],
        texture: Some((noise(3, 2, 11), [MIRROR, REPEAT], None)),
    });
    let settings = Settings {
        max_size: 256,
        ..Settings::default()
    };
    let mut accepted = 0;
    for i in 0..glb.len() {
        for v in [0x00, 0x01, 0x7f, 0x80, 0xff] {
            let mut b = glb.clone();
            b[i] = v;
            let Ok(source) = gltf::Source::parse(&b) else {
                continue;
            };
            let Ok(meshes) = gltf::import_meshes(source, &[], &[], None) else {
                continue;
            };
            let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
            if let Ok(a) = material_stage(&meshes, &prims, &settings) {
                accepted += 1;
                assert!(a.image.pixels.chunks_exact(4).all(|p| p[3] == 255));
                for p in &a.primitives {
                    assert!(
                        p.uv.iter().flatten().all(|v| (0.0..=1.0).contains(v)),
                        "byte {i} = {v}"
                    );
                }
            }
        }
    }
    assert!(accepted > 100, "only {accepted} variants made an atlas");
}

#[test]
fn an_image_that_several_materials_show_alike_is_packed_once() {
    // Two primitives, two materials, one image: the same factor shares a
    // region (covering both primitives' tiles), another factor does not.
    let glb_for = |factors: [[f32; 4]; 2]| {
        let mut f = Fixture::new();
        let pos = f.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3", 3);
        let uv_a = f.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2", 2);
        // (It straddles tiles 0 and 1: an island wholly in tile 1 would
        // be moved into tile 0.)
        let uv_b = f.floats(&[0.5, 0.0, 1.5, 0.0, 0.5, 1.0], "VEC2", 2);
        let png = image::encode_png(&noise(4, 4, 21)).unwrap();
        let view = f.view(&png, None);
        f.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
        f.json["textures"] = json!([{"source": 0}]);
        f.json["materials"] = json!([
            {"name": "a", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "baseColorFactor": factors[0]}},
            {"name": "b", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "baseColorFactor": factors[1]}},
        ]);
        f.push(
            "meshes",
            json!({"primitives": [
                {"attributes": {"POSITION": pos, "TEXCOORD_0": uv_a}, "material": 0},
                {"attributes": {"POSITION": pos, "TEXCOORD_0": uv_b}, "material": 1},
            ]}),
        );
        f.push("nodes", json!({"mesh": 0}));
        f.glb()
    };
    let meshes = load(&glb_for([[1.0; 4], [1.0; 4]]));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions.len(), 1);
    assert_eq!(a.regions[0].materials, ["material \"a\"", "material \"b\""]);
    assert_eq!(
        a.regions[0].tiles,
        [2, 1],
        "the union of tiles 0..1 and 0..2"
    );
    assert!(check_samples(&meshes, &a) <= TOLERANCE);
    let meshes = load(&glb_for([[1.0; 4], [0.5, 1.0, 1.0, 1.0]]));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions.len(), 2);
    assert!(check_samples(&meshes, &a) <= TOLERANCE);
}

#[test]
fn an_image_in_a_data_uri_gives_the_same_atlas() {
    use base64::Engine as _;
    let q = Quad {
        uv: [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [0.7, 0.9, 1.0, 1.0],
        texture: Some((noise(5, 3, 31), [REPEAT, MIRROR], None)),
    };
    let glb = quad_glb(&q);
    let (mut v, bin) = gltf_support::split_glb(&glb);
    let view = v["images"][0]["bufferView"].as_u64().unwrap() as usize;
    let bv = &v["bufferViews"][view];
    let (off, len) = (
        bv["byteOffset"].as_u64().unwrap_or(0) as usize,
        bv["byteLength"].as_u64().unwrap() as usize,
    );
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin[off..off + len])
    );
    v["images"][0] = json!({"uri": uri});
    let from_uri = stage(
        &load(&gltf_support::make_glb(&v, &bin)),
        &Settings::default(),
    );
    let from_view = stage(&load(&glb), &Settings::default());
    assert_eq!(from_uri.image, from_view.image);
    assert_eq!(from_uri.primitives, from_view.primitives);
}

#[test]
fn the_transforms_tex_coord_override_picks_the_uv_set() {
    // TEXCOORD_0 spans one tile, TEXCOORD_1 three; the texture names set 0
    // but KHR_texture_transform overrides it with set 1.
    let mut f = Fixture::new();
    let pos = f.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3", 3);
    let uv0 = f.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2", 2);
    let uv1 = f.floats(&[0.0, 0.0, 3.0, 0.0, 0.0, 1.0], "VEC2", 2);
    let png = image::encode_png(&noise(4, 4, 41)).unwrap();
    let view = f.view(&png, None);
    f.json["images"] = json!([{"bufferView": view}]);
    f.json["textures"] = json!([{"source": 0}]);
    f.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {
        "index": 0, "texCoord": 0,
        "extensions": {"KHR_texture_transform": {"texCoord": 1}}}}}]);
    f.push("meshes", json!({"primitives": [{"attributes": {"POSITION": pos, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1}, "material": 0}]}));
    f.push("nodes", json!({"mesh": 0}));
    let meshes = load(&f.glb());
    assert_eq!(meshes.materials[0].base_color_texture.unwrap().tex_coord, 1);
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions[0].tiles, [3, 1]);
    assert!(check_samples(&meshes, &a) <= TOLERANCE);
}

/// `n` primitives of distinct solid colours.
fn solids(n: usize) -> Meshes {
    let mut f = Fixture::new();
    let pos = f.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3", 3);
    let materials: Vec<_> = (0..n)
        .map(|k| json!({"pbrMetallicRoughness": {"baseColorFactor": [k as f32 / n as f32, 0.5, 0.25, 1.0]}}))
        .collect();
    let prims: Vec<_> = (0..n)
        .map(|k| json!({"attributes": {"POSITION": pos}, "material": k}))
        .collect();
    f.json["materials"] = json!(materials);
    f.push("meshes", json!({"primitives": prims}));
    f.push("nodes", json!({"mesh": 0}));
    load(&f.glb())
}

#[test]
fn packing_takes_the_least_area_then_the_squarer_then_the_narrower() {
    let settings = Settings {
        padding: 0,
        ..Settings::default()
    };
    // (regions of 4 x 4, atlas): 2 fit 4 x 8 or 8 x 4 (a tie: the
    // narrower); 4 fit 4 x 16, 8 x 8 or 16 x 4 (the squarer); 3 fit
    // 4 x 12 best (8 x 8 wastes a cell).
    for (n, want) in [(1, (4, 4)), (2, (4, 8)), (3, (4, 12)), (4, (8, 8))] {
        let a = stage(&solids(n), &settings);
        assert_eq!((a.image.width, a.image.height), want, "{n} regions");
        // Every region inside the atlas, no two overlapping.
        for (i, r) in a.regions.iter().enumerate() {
            let [x, y, w, h] = r.rect;
            assert!(x + w <= a.image.width && y + h <= a.image.height);
            for s in &a.regions[i + 1..] {
                let [sx, sy, sw, sh] = s.rect;
                assert!(
                    x + w <= sx || sx + sw <= x || y + h <= sy || sy + sh <= y,
                    "{:?} {:?}",
                    r.rect,
                    s.rect
                );
            }
        }
    }
    // With padding, each region and its border: 4 + 2 x 4 = 12 a side.
    let a = stage(&solids(2), &Settings::default());
    assert_eq!((a.image.width, a.image.height), (12, 24));
}

#[test]
fn a_downscaled_tinted_region_is_the_box_average_in_linear_light() {
    // 6 tiles of a 4 x 4 texture down V, at most 2 kept: the region is
    // 4 x 8 texels, each the mean of 3 source rows (linear light) times
    // the factor.
    let tex = noise(4, 4, 51);
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 6.0], [0.0, 6.0]],
        colors: None,
        factor: [0.5, 0.8, 1.0, 1.0],
        texture: Some((tex.clone(), [REPEAT, REPEAT], None)),
    };
    let settings = Settings {
        max_tile_repeat: 2,
        ..Settings::default()
    };
    let a = stage(&load(&quad_glb(&q)), &settings);
    let r = &a.regions[0];
    assert_eq!(r.tiles, [1, 6]);
    assert_eq!(&r.rect[2..], [4, 8]);
    assert!((r.scale[1] - 1.0 / 3.0).abs() < 1e-12 && r.scale[0] == 1.0);
    let [x0, y0, ..] = r.rect;
    let mut worst = 0.0f64;
    for j in 0..8u32 {
        for i in 0..4u32 {
            for c in 0..3 {
                let mean = (0..3)
                    .map(|k| {
                        let sy = (j * 3 + k) % 4;
                        to_linear(f64::from(tex.pixels[((sy * 4 + i) * 4) as usize + c]))
                    })
                    .sum::<f64>()
                    / 3.0;
                let want = to_srgb(mean * [0.5, 0.8, 1.0][c]);
                let at = (((y0 + j) * a.image.width + x0 + i) * 4) as usize + c;
                worst = worst.max((want - f64::from(a.image.pixels[at])).abs());
            }
        }
    }
    assert!(worst <= 0.5 + 1e-6, "worst {worst}");
}

/// The images are decoded one at a time, as their regions are painted:
/// eight 512 x 512 images (1 MiB each decoded) into a 256-texel atlas
/// hold less than two images' bytes at once, counted by the allocator
/// (1.86 MB: one image, the box filter's rows, the atlas). Decoding them
/// all first, as the stage did, held more than 8 MiB.
#[test]
fn a_models_images_are_decoded_one_at_a_time() {
    const N: usize = 8;
    const SIDE: u32 = 512;
    let mut f = Fixture::new();
    let pos = f.floats(&[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.], "VEC3", 3);
    let uv = f.floats(&[0., 0., 1., 0., 1., 1., 0., 1.], "VEC2", 2);
    let idx = f.accessor(
        &[0u16, 1, 2, 0, 2, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect::<Vec<_>>(),
        5123,
        "SCALAR",
        6,
        false,
    );
    let (mut images, mut textures, mut materials, mut primitives) =
        (vec![], vec![], vec![], vec![]);
    for k in 0..N {
        // A smooth gradient per image (a few KB as PNG), distinct per k.
        let mut pixels = Vec::with_capacity((SIDE * SIDE * 4) as usize);
        for y in 0..SIDE {
            for x in 0..SIDE {
                pixels.extend_from_slice(&[(x / 2) as u8, (y / 2) as u8, (k * 30) as u8, 255]);
            }
        }
        let png = image::encode_png(&Rgba8 {
            width: SIDE,
            height: SIDE,
            pixels,
        })
        .unwrap();
        let view = f.view(&png, None);
        images.push(json!({"bufferView": view, "mimeType": "image/png"}));
        textures.push(json!({"source": k}));
        materials.push(json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": k}}}));
        primitives.push(json!({"attributes": {"POSITION": pos, "TEXCOORD_0": uv}, "indices": idx, "material": k}));
    }
    f.json["images"] = json!(images);
    f.json["textures"] = json!(textures);
    f.json["materials"] = json!(materials);
    f.push("meshes", json!({"primitives": primitives}));
    f.push("nodes", json!({"mesh": 0}));
    let meshes = load(&f.glb());
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let settings = Settings {
        max_size: 256,
        ..Settings::default()
    };
    let decoded = (SIDE * SIDE * 4) as usize;
    let (a, peak) = alloc_support::peak_live_in(|| material_stage(&meshes, &prims, &settings));
    let a = a.unwrap();
    assert_eq!(a.regions.len(), N);
    assert!(
        peak < 2 * decoded,
        "held {peak} bytes at once; one image is {decoded}"
    );
    // The atlas is the one the images decoded all at once would give.
    let all = decode_images(&meshes);
    let sides: Vec<Option<[u32; 2]>> = all
        .iter()
        .map(|i| i.as_ref().map(|i| [i.width, i.height]))
        .collect();
    let layout = atlas::layout(&prims, &meshes.materials, &sides, &settings).unwrap();
    let mut asked = vec![];
    let b = atlas::paint(&layout, &prims, |i| {
        asked.push(i);
        Ok(all[i].clone().unwrap())
    })
    .unwrap();
    assert_eq!(
        asked,
        (0..N).collect::<Vec<_>>(),
        "each image asked for once"
    );
    assert!(a == b);
}

/// A decoder that gives an image of other sides than its header said is
/// an error, not a region drawn from the wrong texels.
#[test]
fn an_image_decoded_to_other_sides_than_its_header_is_an_error() {
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(4, 4, 3), [REPEAT, REPEAT], None)),
    };
    let meshes = load(&quad_glb(&q));
    let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let layout = atlas::layout(
        &prims,
        &meshes.materials,
        &[Some([4, 4])],
        &Settings::default(),
    )
    .unwrap();
    let e = atlas::paint(&layout, &prims, |_| Ok(noise(4, 5, 3))).unwrap_err();
    assert!(e.message.contains("image 0 decodes to 4 x 5"), "{e}");
    let e = atlas::paint(&layout, &prims, |_| Err(atlas::Error::new("gone"))).unwrap_err();
    assert_eq!(e.message, "gone");
}

/// An image inside a source with bytes after its end (two zeros after a
/// PNG's IEND, as the Meta Quest Touch Plus controller has; a JPEG after
/// its EOI) is read, with a warning naming the image and the byte the
/// padding starts at; a cut image is still refused.
#[test]
fn an_embedded_image_with_bytes_after_its_end_is_read_with_a_warning() {
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((noise(4, 4, 5), [REPEAT, REPEAT], None)),
    };
    let plain = load(&quad_glb(&q));
    let prims: Vec<&Primitive> = plain.meshes.iter().flat_map(|m| &m.primitives).collect();
    let want = material_stage(&plain, &prims, &Settings::default()).unwrap();
    let jpeg = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/images/tiny.jpg"
    ))
    .unwrap();
    for (image, pad) in [(None, vec![0u8, 0]), (Some(jpeg), vec![0u8; 7])] {
        let mut meshes = load(&quad_glb(&q));
        if let Some(j) = &image {
            meshes.images[0].as_mut().unwrap().bytes = j.clone();
        }
        let len = meshes.images[0].as_ref().unwrap().bytes.len();
        let clean = material_stage(&meshes, &prims, &Settings::default()).unwrap();
        meshes.images[0].as_mut().unwrap().bytes.extend(&pad);
        let a = material_stage(&meshes, &prims, &Settings::default()).unwrap();
        assert!(a.image == clean.image);
        let w = a
            .warnings
            .iter()
            .find(|w| w.contains("after the end"))
            .unwrap();
        assert!(
            w.contains("images[0] \"fixture\"")
                && w.contains(&format!(
                    "{} byte(s) after the end of the image are ignored",
                    pad.len()
                )),
            "{w}"
        );
        if image.is_none() {
            assert!(a.image == want.image);
        }
        let _ = len;
        // Cut by a byte: refused as before.
        let bytes = &mut meshes.images[0].as_mut().unwrap().bytes;
        bytes.truncate(len - 1);
        assert!(material_stage(&meshes, &prims, &Settings::default()).is_err());
    }
}

/// Texels of `a`'s region `r` that differ from `im` (whose tile 0 the
/// region holds at scale 1), and the largest difference in sRGB units.
fn texel_error(a: &Atlas, r: usize, im: &Rgba8) -> (usize, u8) {
    let [x0, y0, w, h] = a.regions[r].rect;
    assert_eq!([w, h], [im.width, im.height]);
    let (mut differ, mut worst) = (0, 0u8);
    for y in 0..h {
        for x in 0..w {
            let got = a.image.texel(x0 + x, y0 + y);
            let want = im.texel(x, y);
            let d = (0..3).map(|c| got[c].abs_diff(want[c])).max().unwrap();
            differ += usize::from(d > 0);
            worst = worst.max(d);
        }
    }
    (differ, worst)
}

#[test]
fn a_texture_as_large_as_the_atlas_keeps_its_size() {
    // A model with one texture keeps it texel for texel: its padding is
    // dropped where it meets the atlas's edges (no neighbour to bleed
    // from) rather than every texel resampled to make room for it. A
    // 2048 x 2048 texture with 4 texels of padding was scaled to 2040.
    for (side, wraps, uv) in [
        ([2048, 2048], [REPEAT, REPEAT], [0.1, 0.9]),
        ([2044, 1030], [REPEAT, MIRROR], [0.25, 0.75]),
        // Clamped, the runtime's clamp at the atlas's edge reads what the
        // padding would hold: vertices on the texture's edges sample alike.
        ([2048, 2048], [CLAMP, CLAMP], [0.0, 1.0]),
    ] {
        let im = noise(side[0], side[1], 7);
        let [lo, hi] = uv;
        let q = Quad {
            uv: [[lo, lo], [hi, lo], [hi, hi], [lo, hi]],
            colors: None,
            factor: [1.0; 4],
            texture: Some((im.clone(), wraps, None)),
        };
        let a = check_quad(&q, &Settings::default());
        // (Sides are rounded up to 4.)
        assert_eq!(
            [a.image.width, a.image.height],
            side.map(|s| s.div_ceil(4) * 4),
            "{side:?}"
        );
        assert_eq!(a.fit_scale, 1.0);
        assert_eq!(a.regions[0].rect, [0, 0, side[0], side[1]]);
        assert_eq!(a.regions[0].scale, [1.0, 1.0]);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        assert_eq!(texel_error(&a, 0, &im), (0, 0), "{side:?}");
    }
    // What fits with its padding keeps it on every side (the atlas is the
    // texture and its padding).
    let im = noise(1000, 600, 8);
    let q = Quad {
        uv: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        colors: None,
        factor: [1.0; 4],
        texture: Some((im.clone(), [REPEAT, REPEAT], None)),
    };
    let a = check_quad(&q, &Settings::default());
    assert_eq!(a.regions[0].rect, [4, 4, 1000, 600]);
    assert_eq!([a.image.width, a.image.height], [1008, 608]);
    assert_eq!(texel_error(&a, 0, &im), (0, 0));
    // Two tiles of a REPEAT texture fill the atlas's width at scale 1.
    let a = check_quad(
        &Quad {
            uv: [[0.25, 0.25], [1.75, 0.25], [1.75, 0.75], [0.25, 0.75]],
            colors: None,
            factor: [1.0; 4],
            texture: Some((noise(1024, 1024, 9), [REPEAT, REPEAT], None)),
        },
        &Settings {
            max_size: 2048,
            ..Settings::default()
        },
    );
    assert_eq!(
        a.regions[0].rect,
        [0, 0, 2048, 1024],
        "two tiles side by side"
    );
}

/// A fixture: one quad per entry of `uvs` (its own four vertices, so each
/// is an island), one material showing `texture` with `wraps`.
fn islands_glb(uvs: &[[[f32; 2]; 4]], texture: &Rgba8, wraps: [u32; 2]) -> Vec<u8> {
    let mut f = Fixture::new();
    let mut pos = Vec::new();
    let mut idx = Vec::new();
    for k in 0..uvs.len() as u16 {
        let x = f32::from(k) * 2.0;
        pos.extend([x, 0., 0., x + 1., 0., 0., x + 1., 1., 0., x, 1., 0.]);
        idx.extend([0u16, 1, 2, 0, 2, 3].map(|i| 4 * k + i));
    }
    let pos = f.floats(&pos, "VEC3", 3);
    let uv = f.floats(uvs.as_flattened().as_flattened(), "VEC2", 2);
    let bytes: Vec<u8> = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
    let idx = f.accessor(&bytes, 5123, "SCALAR", idx.len(), false);
    let png = image::encode_png(texture).unwrap();
    let view = f.view(&png, None);
    f.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
    f.json["samplers"] = json!([{"wrapS": wraps[0], "wrapT": wraps[1]}]);
    f.json["textures"] = json!([{"source": 0, "sampler": 0}]);
    f.json["materials"] =
        json!([{"name": "islands", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    f.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": pos, "TEXCOORD_0": uv}, "indices": idx, "material": 0}]}),
    );
    f.push("nodes", json!({"mesh": 0}));
    f.glb()
}

#[test]
fn uv_islands_in_other_tiles_do_not_shrink_the_texture() {
    // Exporters leave UV islands in other tiles than the first (a packed
    // sheet moved by whole tiles, an island far from the origin). Under
    // REPEAT each island is moved by whole tiles into the first, under
    // MIRRORED_REPEAT by two; the texels sampled are the same, and the
    // region holds only the tiles the widest island spans, so a 1024 x
    // 1024 texture keeps every texel where its region held 9 x 5 tiles and
    // was shrunk to under a quarter of its side.
    let quad = |u: f32, v: f32, w: f32| [[u, v], [u + w, v], [u + w, v + w], [u, v + w]];
    let im = noise(1024, 1024, 31);
    let repeat = [
        quad(0.1, 0.1, 0.3),
        quad(3.25, -2.5, 0.25),
        quad(-1.0, 0.5, 0.4),
        quad(7.6, 1.0, 0.3),
    ];
    let meshes = load(&islands_glb(&repeat, &im, [REPEAT, REPEAT]));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions[0].tiles, [1, 1]);
    assert_eq!(a.regions[0].scale, [1.0, 1.0]);
    assert_eq!(a.fit_scale, 1.0);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    assert_eq!(texel_error(&a, 0, &im), (0, 0));
    let worst = check_samples(&meshes, &a);
    assert!(worst <= TOLERANCE, "{worst}");
    // An island across a tile's edge keeps both tiles; one tile further
    // on, it is the same island.
    let straddle = [quad(0.2, 0.2, 0.2), quad(5.75, 0.5, 0.5)];
    let meshes = load(&islands_glb(
        &straddle,
        &noise(64, 64, 32),
        [REPEAT, REPEAT],
    ));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions[0].tiles, [2, 1]);
    assert!(check_samples(&meshes, &a) <= TOLERANCE);
    // MIRRORED_REPEAT repeats every two tiles: an island in tile 1 stays
    // (mirrored there), one in tile 2 or -2 moves to tile 0.
    let mirrored = [
        quad(0.1, 0.1, 0.3),
        quad(1.2, 0.2, 0.3),
        quad(2.5, -1.8, 0.3),
    ];
    let meshes = load(&islands_glb(
        &mirrored,
        &noise(64, 48, 33),
        [MIRROR, MIRROR],
    ));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions[0].tiles, [2, 1]);
    assert!(check_samples(&meshes, &a) <= TOLERANCE);
    // Triangles that share a vertex are one island and move together: an
    // island spanning tiles -3..5 still needs all 8.
    let wide = [[[-3.0, 0.0], [5.0, 0.0], [5.0, 1.0], [-3.0, 1.0]]];
    let meshes = load(&islands_glb(&wide, &noise(16, 16, 34), [REPEAT, REPEAT]));
    let a = stage(&meshes, &Settings::default());
    assert_eq!(a.regions[0].tiles, [8, 1]);
}

//! The material stage: one model's primitives and materials in, one opaque
//! albedo atlas (RGBA8, sRGB) and every vertex's UV into it out.
//!
//! Stages, in order ([`layout`] runs 1 to 4 from the images' sides,
//! [`paint`] 5 and 6, decoding one image at a time):
//! 1. `resolve`: each primitive's base colour becomes a *use*: a solid
//!    colour (no texture: `baseColorFactor` times a constant `COLOR_0`), a
//!    textured range (the image, its wrap modes, the factor, and the
//!    integer tiles its transformed UVs touch, each UV island first moved
//!    by whole periods of the wrap into the first) or, when `COLOR_0` varies
//!    over the primitive, a baked region with a cell per triangle.
//! 2. `group`: uses that would hold the same texels share a region: one
//!    solid region per colour, one textured region per (image, wrap modes,
//!    factor) covering the union of their tile ranges. An image that
//!    several materials show with the same factor is packed once.
//! 3. `size`: each region's texels at scale 1: a tile of the image per
//!    tile used under `REPEAT` / `MIRRORED_REPEAT` (at most
//!    `max_tile_repeat` tiles a side, then downscaled), the image once
//!    under `CLAMP_TO_EDGE` (UVs clamped), 4 × 4 for a solid colour,
//!    8 × 8 per baked triangle.
//! 4. `pack`: shelf packing in a fixed order into the smallest power-of-
//!    two atlas, at most `max_size` a side; when that does not fit, without
//!    padding where a region meets the atlas's edges (`pack::Border::Bare`: a
//!    texture as large as the atlas keeps its size); when nothing fits
//!    even so, every region is scaled down by one factor (the largest that
//!    fits).
//! 5. `render`: each region and `padding` texels around it, each texel
//!    the area average (box filter) of the source over its footprint, in
//!    linear light, continued past the region's edge by the region's own
//!    wrap modes (so bilinear filtering and mipmaps at a region's edge see
//!    what they would see in the source texture, not a neighbour).
//! 6. `remap`: every vertex's UV into its region.
//!
//! **Colour.** Texels are decoded from sRGB, multiplied by the linear
//! factor (and vertex colour) and encoded back to sRGB with rounding to the
//! nearest code; never sRGB bytes times a factor. A texel at scale 1 with
//! factor 1 is copied as it is. The atlas is opaque: alpha is 255, and a
//! `MASK` or `BLEND` material is a warning that names it.
//!
//! **Determinism.** f64 IEEE arithmetic in a fixed order, `libm` for the
//! transfer function's powers, no threads: the same bytes everywhere.
//!
//! **Cost.** Rendering a region is linear in its source image's texels
//! plus the region's texels, whatever the number of tiles (a box over many
//! periods is computed from running sums, not texel by texel); a baked
//! region is 64 texels per triangle with a bilinear texture lookup each.

// Per-axis and per-channel loops index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use crate::model::material::{Material, Primitive, Rgba8, Wrap};

mod pack;
mod render;
mod resolve;
mod stage;

use pack::{Place, pack};
use render::render;
use resolve::{group, resolve, size};
pub use stage::{
    ImageError, ImageReader, MAX_LEVEL_TEXELS, MAX_MODEL_TEXELS, material_stage, shown_texels,
};

/// Largest atlas side: 2,048 (the compiled character format's texture
/// limit).
pub const MAX_ATLAS_SIDE: u32 = 2048;
/// Most padding a manifest may ask for.
pub const MAX_PADDING: u32 = 64;
/// Largest `max_tile_repeat`.
pub const MAX_TILE_REPEAT: u32 = 64;
/// Texels a side of a solid colour's region.
pub const SOLID_SIDE: u32 = 4;
/// Texels a side of a baked triangle's cell.
pub const CELL_SIDE: u32 = 8;
/// Most tiles a UV may be from the origin (±2^24: beyond, f32 UVs have
/// no fraction left to place a texel with).
pub const MAX_UV: f64 = 16_777_216.0;

/// The manifest's `atlas` settings, each left out taking its default;
/// a value out of its range is refused as the manifest is read, at its
/// line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// Largest side of the atlas (1 to [`MAX_ATLAS_SIDE`]).
    #[serde(deserialize_with = "max_size")]
    pub max_size: u32,
    /// Texels of edge extension around every region (at most
    /// [`MAX_PADDING`]).
    #[serde(deserialize_with = "padding")]
    pub padding: u32,
    /// Most tiles of a repeating texture a region holds per side (1 to
    /// [`MAX_TILE_REPEAT`]).
    #[serde(deserialize_with = "max_tile_repeat")]
    pub max_tile_repeat: u32,
}

/// A whole number of `range`, or the rule in the settings' words.
fn ranged<'de, D: serde::Deserializer<'de>>(
    d: D,
    range: std::ops::RangeInclusive<u32>,
    rule: &str,
) -> Result<u32, D::Error> {
    let v = <u64 as serde::Deserialize>::deserialize(d)?;
    match u32::try_from(v) {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(serde::de::Error::custom(format!("{rule}, found {v}"))),
    }
}

fn max_size<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    ranged(
        d,
        1..=MAX_ATLAS_SIDE,
        &format!("atlas max_size must be 1 to {MAX_ATLAS_SIDE}"),
    )
}

fn padding<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    ranged(
        d,
        0..=MAX_PADDING,
        &format!("atlas padding must be at most {MAX_PADDING}"),
    )
}

fn max_tile_repeat<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    ranged(
        d,
        1..=MAX_TILE_REPEAT,
        &format!("atlas max_tile_repeat must be 1 to {MAX_TILE_REPEAT}"),
    )
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_size: 2048,
            padding: 4,
            max_tile_repeat: 8,
        }
    }
}

/// Why the stage failed (lowercase; the caller names the model).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    pub message: String,
    /// The image the failure is about, for the caller to place it at the
    /// image's bytes.
    pub image: Option<usize>,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            image: None,
        }
    }
}

/// Memory for `what` (about `image`, if one), or an error saying it could
/// not be had.
fn memory_for<T>(
    got: Result<T, crate::memory::NoMemory>,
    image: Option<usize>,
    what: std::fmt::Arguments<'_>,
) -> Result<T, Error> {
    got.map_err(|e| Error {
        message: format!(
            "{what} {e}: give kiln more memory, or make the images or the atlas smaller"
        ),
        image,
    })
}

/// Where one region sits and what it holds, for reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionInfo {
    /// The materials whose texels these are (names, or `material <i>`).
    pub materials: Vec<String>,
    /// The source image, if textured.
    pub image: Option<usize>,
    /// `[x, y, width, height]` in atlas texels, padding excluded.
    pub rect: [u32; 4],
    /// Atlas texels per source texel, per axis (1 for a solid colour).
    pub scale: [f64; 2],
    /// Tiles of the source held per axis (1 under `CLAMP_TO_EDGE`).
    pub tiles: [u64; 2],
    /// What the region is.
    pub kind: RegionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Solid,
    Textured,
    /// One cell per triangle (vertex colours that vary).
    Baked,
}

/// A primitive as it points into the atlas. Its vertex `k` is the source
/// primitive's vertex `vertices[k]` with UV `uv[k]`; `indices` are the
/// triangles over the new vertices. A baked primitive has one vertex per
/// triangle corner; any other keeps its vertices (`vertices[k] == k`).
#[derive(Clone, Debug, PartialEq)]
pub struct Remapped {
    pub vertices: Vec<u32>,
    pub uv: Vec<[f32; 2]>,
    pub indices: Vec<u32>,
    /// The region it points into.
    pub region: usize,
}

/// The result of [`paint`].
#[derive(Clone, Debug, PartialEq)]
pub struct Atlas {
    /// Opaque RGBA8, sRGB colour.
    pub image: Rgba8,
    pub regions: Vec<RegionInfo>,
    /// One per input primitive, in order.
    pub primitives: Vec<Remapped>,
    /// The uniform factor every region was scaled by to fit (1: none).
    pub fit_scale: f64,
    /// What a user should know: downscaled tiles, regions scaled to fit,
    /// alpha that the opaque atlas drops.
    pub warnings: Vec<String>,
}

impl Atlas {
    /// The share of the atlas that regions (without padding) cover.
    pub fn fill_ratio(&self) -> f64 {
        let used: u64 = self
            .regions
            .iter()
            .map(|r| u64::from(r.rect[2]) * u64::from(r.rect[3]))
            .sum();
        used as f64 / (f64::from(self.image.width) * f64::from(self.image.height))
    }
}

/// sRGB transfer function tables, computed once per build with `libm`.
struct Transfer {
    /// sRGB code → linear.
    to_linear: [f64; 256],
    /// `thresholds[k]`: the smallest linear value that encodes to code
    /// `k + 1` (the decode of `(k + 0.5) / 255`).
    thresholds: [f64; 255],
}

impl Transfer {
    fn new() -> Transfer {
        let decode = |s: f64| {
            if s <= 0.04045 {
                s / 12.92
            } else {
                libm::pow((s + 0.055) / 1.055, 2.4)
            }
        };
        let mut to_linear = [0.0; 256];
        for (k, v) in to_linear.iter_mut().enumerate() {
            *v = decode(k as f64 / 255.0);
        }
        let mut thresholds = [0.0; 255];
        for (k, v) in thresholds.iter_mut().enumerate() {
            *v = decode((k as f64 + 0.5) / 255.0);
        }
        Transfer {
            to_linear,
            thresholds,
        }
    }

    /// The nearest sRGB code of a linear value (clamped to 0..=1).
    fn encode(&self, linear: f64) -> u8 {
        self.thresholds.partition_point(|&t| t <= linear) as u8
    }
}

/// What a primitive's base colour is.
#[derive(Clone, Debug)]
enum Use {
    Solid {
        /// Linear RGB.
        color: [f64; 3],
    },
    Textured {
        image: usize,
        wrap: [Wrap; 2],
        factor: [f64; 3],
        /// Transformed UVs, one per vertex (clamped under CLAMP_TO_EDGE).
        uv: Vec<[f64; 2]>,
        /// Integer tile range `[lo, hi)` per axis.
        tiles: [[i64; 2]; 2],
    },
    Baked {
        image: Option<(usize, [Wrap; 2])>,
        factor: [f64; 3],
        uv: Vec<[f64; 2]>,
    },
}

/// A region before packing.
struct Region {
    key: RegionKey,
    materials: Vec<String>,
    /// Size at scale 1 (before fitting), without padding.
    size: [u32; 2],
    /// The integer tiles `[lo, hi)` per axis it holds (`[0, 1]` on a
    /// CLAMP_TO_EDGE axis, and for solid and baked regions).
    tiles: [[i64; 2]; 2],
    /// A baked region's grid of cells, columns and rows (one cell per
    /// triangle).
    cells: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RegionKey {
    /// The sRGB bytes of the colour.
    Solid([u8; 3]),
    Textured {
        image: usize,
        wrap: [Wrap; 2],
        /// The factor's f64 bits.
        factor: [u64; 3],
    },
    Baked(usize),
}

fn material_label(materials: &[Material], m: Option<usize>) -> String {
    match m {
        None => "the default material".into(),
        Some(i) => match materials.get(i).and_then(|m| m.name.as_ref()) {
            Some(n) => format!("material {n:?}"),
            None => format!("material {i}"),
        },
    }
}

/// Where everything goes, before any texel is drawn: stages 1 to 4.
pub struct Layout {
    transfer: Transfer,
    uses: Vec<Use>,
    regions: Vec<Region>,
    region_of: Vec<usize>,
    placed: Vec<Place>,
    width: u32,
    height: u32,
    fit_scale: f64,
    warnings: Vec<String>,
    /// Each image's `[width, height]`, as [`layout`] was given them.
    sides: Vec<Option<[u32; 2]>>,
    padding: u32,
}

/// Stages 1 to 4: resolve, group, size, pack. `sides[i]` is `[width,
/// height]` of image `i` (from its header: nothing is decoded here), for
/// every image a primitive's material shows.
pub fn layout(
    primitives: &[&Primitive],
    materials: &[Material],
    sides: &[Option<[u32; 2]>],
    settings: &Settings,
) -> Result<Layout, Error> {
    check_settings(settings)?;
    let transfer = Transfer::new();
    let mut warnings = Vec::new();
    let uses = primitives
        .iter()
        .enumerate()
        .map(|(k, p)| {
            resolve(p, materials, sides, &mut warnings)
                .map_err(|e| Error::new(format!("primitive {k}: {}", e.message)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (mut regions, region_of) = group(&uses, primitives, materials, &transfer);
    size(&mut regions, sides, settings, &mut warnings)?;
    let (width, height, fit_scale, placed) = pack(&regions, settings)?;
    if fit_scale < 1.0 {
        // What the fit costs most: the largest region, before and after.
        let (big, place) = regions
            .iter()
            .zip(&placed)
            .max_by_key(|(r, _)| u64::from(r.size[0]) * u64::from(r.size[1]))
            .expect("a model has a region");
        let tiles = match big.key {
            RegionKey::Textured { image, .. } => {
                let t = big.tiles.map(|[lo, hi]| hi - lo);
                format!(", image {image} over {} x {} tiles", t[0], t[1])
            }
            _ => String::new(),
        };
        warnings.push(format!(
            "the regions do not fit in {0} x {0} at full size: every region is scaled by {fit_scale:.4}; the largest, {1} ({2} x {3} texels{tiles}), is drawn with {4} x {5} (use fewer or smaller textures, UVs over fewer tiles, or a lower max_tile_repeat)",
            settings.max_size,
            big.materials.join(", "),
            big.size[0],
            big.size[1],
            place.size[0],
            place.size[1]
        ));
    }
    Ok(Layout {
        transfer,
        uses,
        regions,
        region_of,
        placed,
        width,
        height,
        fit_scale,
        warnings,
        sides: sides.to_vec(),
        padding: settings.padding,
    })
}

/// Stages 5 and 6: render every region, remap every UV. Takes the same
/// primitives as the [`layout`] it is given. `decode(i)` gives image `i`
/// (of the sides `layout` was given; anything else is an error): each
/// image is asked for once, when the regions that show it are rendered,
/// and dropped before the next, so at most one decoded image is held.
/// Regions do not overlap (padding included), so the order they are
/// rendered in does not change a texel.
pub fn paint(
    layout: &Layout,
    primitives: &[&Primitive],
    mut decode: impl FnMut(usize) -> Result<Rgba8, Error>,
) -> Result<Atlas, Error> {
    let Layout {
        transfer,
        uses,
        regions,
        region_of,
        placed,
        width,
        height,
        fit_scale,
        warnings,
        sides,
        padding,
    } = layout;
    let mut atlas = Rgba8 {
        width: *width,
        height: *height,
        pixels: memory_for(
            crate::memory::zeroed(*width as usize * *height as usize * 4),
            None,
            format_args!("the {width} x {height} atlas"),
        )?,
    };
    for pixel in atlas.pixels.chunks_exact_mut(4) {
        pixel[3] = 255;
    }
    // The regions by the image they show (none first), each image once.
    let mut by_image: BTreeMap<Option<usize>, Vec<usize>> = BTreeMap::new();
    for (r, region) in regions.iter().enumerate() {
        by_image
            .entry(region_image(region, uses))
            .or_default()
            .push(r);
    }
    let mut images: Vec<Option<Rgba8>> = vec![None; sides.len()];
    for (image, shown_in) in by_image {
        if let Some(i) = image {
            let im = decode(i)?;
            if Some([im.width, im.height]) != sides[i] {
                return Err(Error::new(format!(
                    "image {i} decodes to {} x {}, not the {:?} its header gave",
                    im.width, im.height, sides[i]
                )));
            }
            images[i] = Some(im);
        }
        for r in shown_in {
            render(
                &mut atlas,
                &regions[r],
                &placed[r],
                uses,
                primitives,
                &images,
                *padding,
                transfer,
            )?;
        }
        if let Some(i) = image {
            images[i] = None;
        }
    }
    let infos = regions
        .iter()
        .zip(placed)
        .map(|(region, place)| info(region, place, sides))
        .collect();
    let remapped = uses
        .iter()
        .zip(primitives)
        .zip(region_of)
        .map(|((u, p), &r)| remap(u, p, &regions[r], &placed[r], r, &atlas))
        .collect();
    Ok(Atlas {
        image: atlas,
        regions: infos,
        primitives: remapped,
        fit_scale: *fit_scale,
        warnings: warnings.clone(),
    })
}

/// The image a region's texels are drawn from, if any.
fn region_image(region: &Region, uses: &[Use]) -> Option<usize> {
    match region.key {
        RegionKey::Solid(_) => None,
        RegionKey::Textured { image, .. } => Some(image),
        RegionKey::Baked(k) => match &uses[k] {
            Use::Baked { image, .. } => image.map(|(i, _)| i),
            _ => None,
        },
    }
}

fn check_settings(s: &Settings) -> Result<(), Error> {
    if !(1..=MAX_ATLAS_SIDE).contains(&s.max_size) {
        return Err(Error::new(format!(
            "max_size is {}, expected 1 to {MAX_ATLAS_SIDE}",
            s.max_size
        )));
    }
    if s.padding > MAX_PADDING {
        return Err(Error::new(format!(
            "padding is {}, expected at most {MAX_PADDING}",
            s.padding
        )));
    }
    if !(1..=MAX_TILE_REPEAT).contains(&s.max_tile_repeat) {
        return Err(Error::new(format!(
            "max_tile_repeat is {}, expected 1 to {MAX_TILE_REPEAT}",
            s.max_tile_repeat
        )));
    }
    Ok(())
}

fn info(region: &Region, place: &Place, sides: &[Option<[u32; 2]>]) -> RegionInfo {
    let (image, kind) = match region.key {
        RegionKey::Solid(_) => (None, RegionKind::Solid),
        RegionKey::Textured { image, .. } => (Some(image), RegionKind::Textured),
        RegionKey::Baked(_) => (None, RegionKind::Baked),
    };
    let tiles = match region.key {
        RegionKey::Textured { .. } => region.tiles.map(|[lo, hi]| (hi - lo) as u64),
        _ => [1, 1],
    };
    let scale = match image.and_then(|i| sides[i]) {
        Some([w, h]) => [
            f64::from(place.size[0]) / (tiles[0] as f64 * f64::from(w)),
            f64::from(place.size[1]) / (tiles[1] as f64 * f64::from(h)),
        ],
        None => [1.0, 1.0],
    };
    RegionInfo {
        materials: region.materials.clone(),
        image,
        rect: [place.x, place.y, place.size[0], place.size[1]],
        scale,
        tiles,
        kind,
    }
}

/// Stage 6: a primitive's UVs into its region.
fn remap(
    u: &Use,
    p: &Primitive,
    region: &Region,
    place: &Place,
    r: usize,
    atlas: &Rgba8,
) -> Remapped {
    let n = p.positions.len();
    let (aw, ah) = (f64::from(atlas.width), f64::from(atlas.height));
    let uv = match u {
        Use::Solid { .. } => {
            let c = [
                (f64::from(place.x) + f64::from(place.size[0]) / 2.0) / aw,
                (f64::from(place.y) + f64::from(place.size[1]) / 2.0) / ah,
            ];
            vec![[c[0] as f32, c[1] as f32]; n]
        }
        Use::Textured { uv, .. } => {
            let tiles = region.tiles;
            uv.iter()
                .map(|t| {
                    let mut out = [0.0f32; 2];
                    for axis in 0..2 {
                        let lo = tiles[axis][0] as f64;
                        let count = (tiles[axis][1] - tiles[axis][0]) as f64;
                        let origin = f64::from(if axis == 0 { place.x } else { place.y });
                        let size = f64::from(place.size[axis]);
                        let texels = origin + (t[axis] - lo) / count * size;
                        out[axis] = (texels / if axis == 0 { aw } else { ah }) as f32;
                    }
                    out
                })
                .collect()
        }
        Use::Baked { .. } => {
            // One vertex per corner, at its cell's corner texel centres.
            let g = region.cells[0];
            let c = f64::from(place.size[0] / g);
            let mut uv = Vec::with_capacity(p.indices.len());
            for q in 0..p.indices.len() / 3 {
                let cx = f64::from(place.x) + (q as u64 % u64::from(g)) as f64 * c;
                let cy = f64::from(place.y) + (q as u64 / u64::from(g)) as f64 * c;
                for (dx, dy) in [(0.5, 0.5), (c - 0.5, 0.5), (0.5, c - 0.5)] {
                    uv.push([((cx + dx) / aw) as f32, ((cy + dy) / ah) as f32]);
                }
            }
            return Remapped {
                vertices: p.indices.clone(),
                uv,
                indices: (0..p.indices.len() as u32).collect(),
                region: r,
            };
        }
    };
    Remapped {
        vertices: (0..n as u32).collect(),
        uv,
        indices: p.indices.clone(),
        region: r,
    }
}

/// The atlas as the compiled character stores it: QOI, 4 channels,
/// colorspace 0 (sRGB colour, linear alpha).
pub fn encode_qoi(image: &Rgba8) -> Vec<u8> {
    use crate::formats::qoi;
    let header = qoi::Header {
        width: image.width,
        height: image.height,
        channels: qoi::Channels::Rgba,
        colorspace: qoi::Colorspace::Srgb,
    };
    qoi::encode_pixels(&header, &image.pixels)
        .expect("an atlas is at most 2048 x 2048 with 4 bytes a texel")
}

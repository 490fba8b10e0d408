//! The material stage: one model's primitives and materials in, one opaque
//! albedo atlas (RGBA8, sRGB) and every vertex's UV into it out.
//!
//! Stages, in order ([`layout`] runs 1 to 4 from the images' sides,
//! [`paint`] 5 and 6, decoding one image at a time):
//! 1. [`resolve`]: each primitive's base colour becomes a *use*: a solid
//!    colour (no texture: `baseColorFactor` times a constant `COLOR_0`), a
//!    textured range (the image, its wrap modes, the factor, and the
//!    integer tiles its transformed UVs touch, each UV island first moved
//!    by whole periods of the wrap into the first) or, when `COLOR_0` varies
//!    over the primitive, a baked region with a cell per triangle.
//! 2. [`group`]: uses that would hold the same texels share a region: one
//!    solid region per colour, one textured region per (image, wrap modes,
//!    factor) covering the union of their tile ranges. An image that
//!    several materials show with the same factor is packed once.
//! 3. [`size`]: each region's texels at scale 1: a tile of the image per
//!    tile used under `REPEAT` / `MIRRORED_REPEAT` (at most
//!    `max_tile_repeat` tiles a side, then downscaled), the image once
//!    under `CLAMP_TO_EDGE` (UVs clamped), 4 × 4 for a solid colour,
//!    8 × 8 per baked triangle.
//! 4. [`pack`]: shelf packing in a fixed order into the smallest power-of-
//!    two atlas, at most `max_size` a side; when that does not fit, without
//!    padding where a region meets the atlas's edges ([`Border::Bare`]: a
//!    texture as large as the atlas keeps its size); when nothing fits
//!    even so, every region is scaled down by one factor (the largest that
//!    fits).
//! 5. [`render`]: each region and `padding` texels around it, each texel
//!    the area average (box filter) of the source over its footprint, in
//!    linear light, continued past the region's edge by the region's own
//!    wrap modes (so bilinear filtering and mipmaps at a region's edge see
//!    what they would see in the source texture, not a neighbour).
//! 6. [`remap`]: every vertex's UV into its region.
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

use crate::model::material::{AlphaMode, Material, Primitive, Rgba8, Wrap};

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

/// The manifest's `atlas` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Largest side of the atlas (at most [`MAX_ATLAS_SIDE`]).
    pub max_size: u32,
    /// Texels of edge extension around every region.
    pub padding: u32,
    /// Most tiles of a repeating texture a region holds per side.
    pub max_tile_repeat: u32,
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

/// Stage 1: a primitive's base colour.
fn resolve(
    p: &Primitive,
    materials: &[Material],
    sides: &[Option<[u32; 2]>],
    warnings: &mut Vec<String>,
) -> Result<Use, Error> {
    let default = Material::default_material();
    let material = match p.material {
        Some(m) => materials.get(m).ok_or_else(|| {
            Error::new(format!(
                "material {m} does not exist ({} materials)",
                materials.len()
            ))
        })?,
        None => &default,
    };
    let label = material_label(materials, p.material);
    let mode = match material.alpha_mode {
        AlphaMode::Opaque => None,
        AlphaMode::Mask => Some("MASK"),
        AlphaMode::Blend => Some("BLEND"),
    };
    if let Some(mode) = mode {
        let w = format!("{label} is {mode}: the atlas is opaque, so its alpha is dropped");
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    }
    let mut factor = material.base_color_factor[..3]
        .iter()
        .map(|&f| f64::from(f))
        .collect::<Vec<_>>();
    // A constant vertex colour folds into the factor; a varying one bakes.
    let mut varying = false;
    if let Some(colors) = &p.colors {
        let first = colors.first().copied().unwrap_or([1.0; 4]);
        if colors.iter().all(|c| c[..3] == first[..3]) {
            for (f, c) in factor.iter_mut().zip(first) {
                *f *= f64::from(c);
            }
        } else {
            varying = true;
        }
    }
    let factor = [factor[0], factor[1], factor[2]];
    let Some(tex) = material.base_color_texture else {
        if varying {
            return Ok(Use::Baked {
                image: None,
                factor,
                uv: vec![],
            });
        }
        return Ok(Use::Solid { color: factor });
    };
    if sides.get(tex.image).is_none_or(|i| i.is_none()) {
        return Err(Error::new(format!(
            "{label}: image {} was not read",
            tex.image
        )));
    }
    let Some(set) = p.tex_coords.get(tex.tex_coord) else {
        return Err(Error::new(format!(
            "{label} samples TEXCOORD_{}, which the primitive does not have",
            tex.tex_coord
        )));
    };
    let wrap = [tex.sampler.wrap_s, tex.sampler.wrap_t];
    let transform = tex.transform.matrix();
    let mut uv = Vec::with_capacity(set.len());
    for (k, &raw) in set.iter().enumerate() {
        let mut t = transform.apply(raw);
        if t.iter().any(|v| !v.is_finite() || v.abs() > MAX_UV) {
            return Err(Error::new(format!(
                "vertex {k}: transformed UV {t:?} is beyond ±{MAX_UV} tiles"
            )));
        }
        for (axis, w) in wrap.iter().enumerate() {
            if *w == Wrap::ClampToEdge {
                t[axis] = t[axis].clamp(0.0, 1.0);
            }
        }
        uv.push(t);
    }
    if varying {
        return Ok(Use::Baked {
            image: Some((tex.image, wrap)),
            factor,
            uv,
        });
    }
    shift_islands(&mut uv, &p.indices, wrap);
    let mut tiles = [[0i64, 1]; 2];
    for (axis, w) in wrap.iter().enumerate() {
        if *w == Wrap::ClampToEdge || uv.is_empty() {
            continue;
        }
        let lo = uv.iter().map(|t| t[axis]).fold(f64::INFINITY, f64::min);
        let hi = uv.iter().map(|t| t[axis]).fold(f64::NEG_INFINITY, f64::max);
        let lo = lo.floor() as i64;
        let hi = (hi.ceil() as i64).max(lo + 1);
        tiles[axis] = [lo, hi];
    }
    Ok(Use::Textured {
        image: tex.image,
        wrap,
        factor,
        uv,
        tiles,
    })
}

/// Moves each UV island (triangles that share vertices) by whole periods
/// of its wrap, per axis (1 tile under `REPEAT`, 2 under
/// `MIRRORED_REPEAT`; none under `CLAMP_TO_EDGE`), so that its lowest UV
/// lies in the first period. Every texel an island samples stays the
/// same (the wrap repeats with that period, and subtracting a whole
/// number from a UV within ±2^24 is exact), but islands that sit in other
/// tiles than the first, or far from the origin, no longer make a region
/// hold every tile between them: it needs only as many as the widest
/// island spans.
fn shift_islands(uv: &mut [[f64; 2]], indices: &[u32], wrap: [Wrap; 2]) {
    let period = wrap.map(|w| match w {
        Wrap::Repeat => Some(1.0),
        Wrap::MirroredRepeat => Some(2.0),
        Wrap::ClampToEdge => None,
    });
    if period == [None, None] || uv.is_empty() {
        return;
    }
    // Union-find over vertices, by triangle edges; the root is the lowest
    // vertex of its island, so the result is independent of the order.
    let n = uv.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for tri in indices.chunks_exact(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|v| v as usize);
        if a >= n || b >= n || c >= n {
            continue;
        }
        for (x, y) in [(a, b), (b, c)] {
            let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
            let (lo, hi) = (rx.min(ry), rx.max(ry));
            parent[hi] = lo;
        }
    }
    let island: Vec<usize> = (0..n).map(|v| root(&mut parent, v)).collect();
    let mut low = vec![[f64::INFINITY; 2]; n];
    for v in 0..n {
        for axis in 0..2 {
            low[island[v]][axis] = low[island[v]][axis].min(uv[v][axis]);
        }
    }
    for v in 0..n {
        let r = island[v];
        for axis in 0..2 {
            if let Some(p) = period[axis] {
                uv[v][axis] -= (low[r][axis] / p).floor() * p;
            }
        }
    }
}

/// Stage 2: regions (in first-use order) and each use's region.
fn group(
    uses: &[Use],
    primitives: &[&Primitive],
    materials: &[Material],
    transfer: &Transfer,
) -> (Vec<Region>, Vec<usize>) {
    let mut regions: Vec<Region> = Vec::new();
    let mut by_key: BTreeMap<RegionKey, usize> = BTreeMap::new();
    let mut region_of = Vec::with_capacity(uses.len());
    for (k, u) in uses.iter().enumerate() {
        let (key, tiles) = match u {
            Use::Solid { color } => (
                RegionKey::Solid(color.map(|c| transfer.encode(c))),
                [[0, 1]; 2],
            ),
            Use::Textured {
                image,
                wrap,
                factor,
                tiles,
                ..
            } => (
                RegionKey::Textured {
                    image: *image,
                    wrap: *wrap,
                    factor: factor.map(f64::to_bits),
                },
                *tiles,
            ),
            Use::Baked { .. } => (RegionKey::Baked(k), [[0, 1]; 2]),
        };
        let label = material_label(materials, primitives[k].material);
        let r = *by_key.entry(key.clone()).or_insert_with(|| {
            regions.push(Region {
                key,
                materials: vec![],
                size: [0, 0],
                tiles,
                cells: match u {
                    Use::Baked { .. } => grid(primitives[k].indices.len() / 3),
                    _ => [0, 0],
                },
            });
            regions.len() - 1
        });
        let region = &mut regions[r];
        for axis in 0..2 {
            region.tiles[axis][0] = region.tiles[axis][0].min(tiles[axis][0]);
            region.tiles[axis][1] = region.tiles[axis][1].max(tiles[axis][1]);
        }
        if !region.materials.contains(&label) {
            region.materials.push(label);
        }
        region_of.push(r);
    }
    (regions, region_of)
}

/// Stage 3: each region's size at full scale, tiles limited.
fn size(
    regions: &mut [Region],
    sides: &[Option<[u32; 2]>],
    settings: &Settings,
    warnings: &mut Vec<String>,
) -> Result<(), Error> {
    for region in regions.iter_mut() {
        match region.key {
            RegionKey::Solid(_) => region.size = [SOLID_SIDE; 2],
            RegionKey::Baked(_) => region.size = region.cells.map(|n| n * CELL_SIDE),
            RegionKey::Textured { image, .. } => {
                let side = sides[image].expect("resolve checked the image");
                // Atlas texels per source texel after the tile limit.
                let mut tile_scale = [1.0; 2];
                for axis in 0..2 {
                    let [lo, hi] = region.tiles[axis];
                    let tiles = (hi - lo) as u64;
                    let full = tiles.saturating_mul(u64::from(side[axis]));
                    let limit = u64::from(settings.max_tile_repeat) * u64::from(side[axis]);
                    let texels = full.min(limit).max(1);
                    tile_scale[axis] = texels as f64 / full as f64;
                    region.size[axis] = u32::try_from(texels).map_err(|_| {
                        Error::new(format!("a region of {texels} texels is too large"))
                    })?;
                }
                if tile_scale != [1.0, 1.0] {
                    let tiles = region.tiles.map(|[lo, hi]| hi - lo);
                    warnings.push(format!(
                        "{} (image {image}) repeats over {} x {} tiles, more than max_tile_repeat {}: its region is downscaled by {:.4} x {:.4}",
                        region.materials.join(", "),
                        tiles[0],
                        tiles[1],
                        settings.max_tile_repeat,
                        tile_scale[0],
                        tile_scale[1]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Columns and rows of cells for `n` triangles: a square grid, at least
/// one cell.
fn grid(n: usize) -> [u32; 2] {
    let n = n.max(1) as u64;
    let mut g = (n as f64).sqrt() as u64;
    while g * g < n {
        g += 1;
    }
    [g as u32, n.div_ceil(g) as u32]
}

/// Where a region landed: its top-left texel (padding excluded) and size.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    x: u32,
    y: u32,
    size: [u32; 2],
}

/// Stage 4: an atlas size, the fit scale and each region's place.
fn pack(regions: &[Region], settings: &Settings) -> Result<(u32, u32, f64, Vec<Place>), Error> {
    let pad = settings.padding;
    let max = settings.max_size;
    // At a scale below 1, a texture's region shrinks with it, a baked
    // region's cells shrink to no less than 2 texels (so each corner
    // keeps a texel centre of its own), a solid colour stays 4 x 4.
    let sized = |scale: f64| -> Vec<[u32; 2]> {
        regions
            .iter()
            .map(|r| match r.key {
                _ if scale >= 1.0 => r.size,
                RegionKey::Solid(_) => r.size,
                RegionKey::Baked(_) => {
                    let cell = ((f64::from(CELL_SIDE) * scale).floor() as u32).max(2);
                    r.cells.map(|n| n * cell)
                }
                RegionKey::Textured { .. } => r
                    .size
                    .map(|s| ((f64::from(s) * scale).floor() as u32).max(1)),
            })
            .collect()
    };
    let full = sized(1.0);
    if let Some((w, h, places)) = smallest(&full, pad, max, Border::Padded) {
        return Ok((w, h, 1.0, places));
    }
    // Padding at the atlas's edges holds no neighbour off: without it,
    // a texture as large as the atlas (a lone 2048 x 2048) keeps its size.
    if let Some((w, h, places)) = smallest(&full, pad, max, Border::Bare) {
        return Ok((w, h, 1.0, places));
    }
    // Scale down: the largest factor that fits max x max, by bisection.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut best = None;
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        match smallest(&sized(mid), pad, max, Border::Bare) {
            Some(found) => {
                lo = mid;
                best = Some((mid, found));
            }
            None => hi = mid,
        }
    }
    match best {
        Some((scale, (w, h, places))) => Ok((w, h, scale, places)),
        None => Err(Error::new(format!(
            "{} regions with {pad} texels of padding do not fit in {max} x {max} at any scale",
            regions.len()
        ))),
    }
}

/// Whether regions keep their padding where they meet the atlas's edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Border {
    /// Padding on every side of every region.
    Padded,
    /// Padding only between regions (and towards unused texels): a region
    /// may meet the atlas's edge, where the runtime's sampler reads the
    /// edge texel under clamping (exactly what a `CLAMP_TO_EDGE` region's
    /// padding would hold).
    Bare,
}

/// The smallest atlas the shelf packer fills, at most `max` a side: widths
/// tried are the powers of two and each region's padded width (and, with
/// [`Border::Bare`], its own width), rounded up to 4, heights are what the
/// packing needs (rounded up to 4). Least area wins, then the squarer, then
/// the narrower. A bare border packs into the atlas grown by the padding
/// on every side, then cut back to it.
fn smallest(
    sizes: &[[u32; 2]],
    pad: u32,
    max: u32,
    border: Border,
) -> Option<(u32, u32, Vec<Place>)> {
    let edge = match border {
        Border::Padded => 0,
        Border::Bare => pad,
    };
    let mut widths: Vec<u32> = std::iter::successors(Some(1u32), |w| w.checked_mul(2))
        .take_while(|&w| w <= max)
        .collect();
    widths.push(max);
    for s in sizes {
        let mut own = vec![u64::from(s[0]) + 2 * u64::from(pad)];
        if border == Border::Bare {
            own.push(u64::from(s[0]));
        }
        for w in own {
            let w = w.div_ceil(4) * 4;
            if w <= u64::from(max) {
                widths.push(w as u32);
            }
        }
    }
    widths.sort_unstable();
    widths.dedup();
    let mut best: Option<(u32, u32, Vec<Place>)> = None;
    for w in widths {
        let Some((places, used)) = shelf(sizes, pad, w + 2 * edge, max + 2 * edge) else {
            continue;
        };
        let used = used.saturating_sub(2 * edge);
        let h = (used.div_ceil(4) * 4).clamp(1, max);
        let better = match &best {
            None => true,
            Some((bw, bh, _)) => {
                let (a, b) = (u64::from(w) * u64::from(h), u64::from(*bw) * u64::from(*bh));
                a < b || (a == b && w.max(h) < (*bw).max(*bh))
            }
        };
        if better {
            let places = places
                .into_iter()
                .map(|p| Place {
                    x: p.x - edge,
                    y: p.y - edge,
                    ..p
                })
                .collect();
            best = Some((w, h, places));
        }
    }
    best
}

/// Shelf packing: regions by descending padded height (then width, then
/// first use), left to right, a new shelf when a row is full.
/// Returns the places and the height used.
fn shelf(sizes: &[[u32; 2]], pad: u32, width: u32, height: u32) -> Option<(Vec<Place>, u32)> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(sizes[i][1]),
            std::cmp::Reverse(sizes[i][0]),
            i,
        )
    });
    let mut places = vec![
        Place {
            x: 0,
            y: 0,
            size: [0, 0]
        };
        sizes.len()
    ];
    let (mut x, mut y, mut shelf_h) = (0u64, 0u64, 0u64);
    let (width, height) = (u64::from(width), u64::from(height));
    for i in order {
        let w = u64::from(sizes[i][0]) + 2 * u64::from(pad);
        let h = u64::from(sizes[i][1]) + 2 * u64::from(pad);
        if w > width {
            return None;
        }
        if x + w > width {
            y += shelf_h;
            x = 0;
            shelf_h = 0;
        }
        if y + h > height {
            return None;
        }
        places[i] = Place {
            x: (x + u64::from(pad)) as u32,
            y: (y + u64::from(pad)) as u32,
            size: sizes[i],
        };
        x += w;
        shelf_h = shelf_h.max(h);
    }
    Some((places, (y + shelf_h) as u32))
}

/// One row or column of linear values as a period of its extension under
/// a wrap mode (mirrored once for MIRRORED_REPEAT), with running sums, so
/// the integral up to any point is O(1).
/// Filled again for each line, its buffers kept.
struct Line {
    period: Vec<f64>,
    /// `sums[k]`: the sum of `period[..k]`.
    sums: Vec<f64>,
}

impl Line {
    /// Room for lines of up to `n` values, asked for once.
    fn with_capacity(n: usize) -> Result<Line, crate::memory::NoMemory> {
        Ok(Line {
            period: crate::memory::with_capacity(2 * n)?,
            sums: crate::memory::with_capacity(2 * n + 1)?,
        })
    }

    fn fill(&mut self, values: impl Iterator<Item = f64>, wrap: Wrap) {
        self.period.clear();
        self.period.extend(values);
        if wrap == Wrap::MirroredRepeat {
            let n = self.period.len();
            self.period.extend_from_within(..n);
            self.period[n..].reverse();
        }
        self.sums.clear();
        let mut s = 0.0;
        self.sums.push(0.0);
        for v in &self.period {
            s += v;
            self.sums.push(s);
        }
    }

    /// The integral of the extended values from 0 to the spot.
    fn integral(&self, at: &Spot) -> f64 {
        at.periods * self.sums[self.period.len()] + self.sums[at.k] + at.frac * self.period[at.k]
    }
}

/// A position along an axis, decomposed once for every line it is used on:
/// the integral there is `periods · (sum of a period) + sums[k] + frac ·
/// period[k]`.
#[derive(Clone, Copy)]
struct Spot {
    periods: f64,
    k: usize,
    frac: f64,
}

/// Where `x` falls on an axis whose period has `n` values (the image's
/// side, twice it when mirrored).
fn spot(x: f64, n: usize, wrap: Wrap) -> Spot {
    let nf = n as f64;
    match wrap {
        // Constant extension: before 0 the first value, after n the last.
        Wrap::ClampToEdge if x <= 0.0 => Spot {
            periods: 0.0,
            k: 0,
            frac: x,
        },
        Wrap::ClampToEdge if x >= nf => Spot {
            periods: 0.0,
            k: n - 1,
            frac: x - nf + 1.0,
        },
        Wrap::ClampToEdge => {
            let k = x.floor();
            Spot {
                periods: 0.0,
                k: k as usize,
                frac: x - k,
            }
        }
        _ => {
            let periods = (x / nf).floor();
            let rest = x - periods * nf;
            let k = (rest.floor() as usize).min(n - 1);
            Spot {
                periods,
                k,
                frac: rest - k as f64,
            }
        }
    }
}

/// The spots of `count + 1` box edges `origin + j · step`, `j` from
/// `-pad`.
fn edges(
    origin: f64,
    step: f64,
    pad: i64,
    count: i64,
    n: usize,
    wrap: Wrap,
) -> Result<Vec<Spot>, crate::memory::NoMemory> {
    let mut spots = crate::memory::with_capacity((count + 2 * pad + 1) as usize)?;
    spots.extend((-pad..=count + pad).map(|j| spot(origin + j as f64 * step, n, wrap)));
    Ok(spots)
}

/// The index of the texel at integer position `x` of an axis of `n`
/// texels under `wrap`.
fn wrap_index(x: i64, n: i64, wrap: Wrap) -> usize {
    (match wrap {
        Wrap::Repeat => x.rem_euclid(n),
        Wrap::MirroredRepeat => {
            let m = x.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
        Wrap::ClampToEdge => x.clamp(0, n - 1),
    }) as usize
}

/// Stage 5: one region and its padding into the atlas.
#[allow(clippy::too_many_arguments)]
fn render(
    atlas: &mut Rgba8,
    region: &Region,
    place: &Place,
    uses: &[Use],
    primitives: &[&Primitive],
    images: &[Option<Rgba8>],
    pad: u32,
    transfer: &Transfer,
) -> Result<(), Error> {
    let pad = i64::from(pad);
    let [rw, rh] = place.size.map(i64::from);
    // The texels drawn, from the region's top-left: its padding, cut at
    // the atlas's edges (a region packed with a bare border meets them).
    let (px, py) = (i64::from(place.x), i64::from(place.y));
    let (aw, ah) = (i64::from(atlas.width), i64::from(atlas.height));
    let cols = -pad.min(px)..rw + pad.min(aw - px - rw);
    let rows = -pad.min(py)..rh + pad.min(ah - py - rh);
    let mut put = |i: i64, j: i64, rgb: [u8; 3]| {
        let at = ((py + j) as usize * atlas.width as usize + (px + i) as usize) * 4;
        atlas.pixels[at..at + 3].copy_from_slice(&rgb);
    };
    match &region.key {
        RegionKey::Solid(rgb) => {
            for j in rows.clone() {
                for i in cols.clone() {
                    put(i, j, *rgb);
                }
            }
        }
        RegionKey::Textured {
            image,
            wrap,
            factor,
        } => {
            let im = images[*image].as_ref().expect("resolve checked the image");
            let factor = factor.map(f64::from_bits);
            let (w, h) = (i64::from(im.width), i64::from(im.height));
            // The tiles the region holds, from `origin` (in source
            // texels); a CLAMP_TO_EDGE axis holds tile 0 only.
            let [[x0, x1], [y0, y1]] = region.tiles;
            let span = [(x1 - x0) * w, (y1 - y0) * h];
            let origin = [x0 * w, y0 * h];
            if span[0] == rw && span[1] == rh {
                // Scale 1: texel for texel, the wrap continuing past the
                // edges. Each channel goes through a table of what its 256
                // codes become times the factor (the identity for 1).
                let table: [[u8; 256]; 3] = std::array::from_fn(|c| {
                    std::array::from_fn(|code| {
                        if factor[c] == 1.0 {
                            code as u8
                        } else {
                            transfer.encode(transfer.to_linear[code] * factor[c])
                        }
                    })
                });
                let mut sxs: Vec<usize> = memory_for(
                    crate::memory::with_capacity(cols.clone().count()),
                    Some(*image),
                    format_args!("copying it ({w} x {h})"),
                )?;
                sxs.extend(cols.clone().map(|i| wrap_index(origin[0] + i, w, wrap[0])));
                let stride = atlas.width as usize * 4;
                let x0 = (px + cols.start) as usize * 4;
                for j in rows {
                    let sy = wrap_index(origin[1] + j, h, wrap[1]);
                    let src = &im.pixels[sy * w as usize * 4..][..w as usize * 4];
                    let y = (i64::from(place.y) + j) as usize;
                    let dst = &mut atlas.pixels[y * stride + x0..][..sxs.len() * 4];
                    for (d, &sx) in dst.chunks_exact_mut(4).zip(&sxs) {
                        let t = &src[sx * 4..sx * 4 + 3];
                        d[0] = table[0][usize::from(t[0])];
                        d[1] = table[1][usize::from(t[1])];
                        d[2] = table[2][usize::from(t[2])];
                    }
                }
                return Ok(());
            }
            // Box filter, separable: each source row is averaged over each
            // atlas column's footprint, then each column over each row's.
            // The box edges are the same for every row (and column), so
            // they are decomposed once.
            let width = (rw + 2 * pad) as usize;
            let step = [span[0] as f64 / rw as f64, span[1] as f64 / rh as f64];
            let period =
                |side: i64, w: Wrap| side as usize * if w == Wrap::MirroredRepeat { 2 } else { 1 };
            // One channel at a time: the row pass averages each source row
            // over each atlas column's footprint into `across` (the
            // region's width by the image's height, f32: 4 bytes a texel,
            // at most 0.13 times the decoded image), then the column pass
            // averages each column over each row's footprint. Every buffer
            // is asked for once, here.
            let stride = atlas.width as usize * 4;
            let buffers = || -> Result<_, crate::memory::NoMemory> {
                Ok((
                    edges(
                        origin[0] as f64,
                        step[0],
                        pad,
                        rw,
                        period(w, wrap[0]),
                        wrap[0],
                    )?,
                    edges(
                        origin[1] as f64,
                        step[1],
                        pad,
                        rh,
                        period(h, wrap[1]),
                        wrap[1],
                    )?,
                    crate::memory::zeroed::<f32>(width * h as usize)?,
                    Line::with_capacity(w.max(h) as usize)?,
                    crate::memory::zeroed::<f64>(h as usize)?,
                ))
            };
            let (xs, ys, mut across, mut line, mut column) = memory_for(
                buffers(),
                Some(*image),
                format_args!("filtering it ({w} x {h}) into a region {width} texels wide"),
            )?;
            for c in 0..3 {
                for y in 0..h as usize {
                    let src = &im.pixels[y * w as usize * 4..][..w as usize * 4];
                    line.fill(
                        src.chunks_exact(4)
                            .map(|t| transfer.to_linear[usize::from(t[c])]),
                        wrap[0],
                    );
                    let mut before = line.integral(&xs[0]);
                    for (k, a) in across[y * width..][..width].iter_mut().enumerate() {
                        let after = line.integral(&xs[k + 1]);
                        *a = ((after - before) / step[0]) as f32;
                        before = after;
                    }
                }
                for (k, i) in (-pad..rw + pad).enumerate() {
                    if !cols.contains(&i) {
                        continue;
                    }
                    for y in 0..h as usize {
                        column[y] = f64::from(across[y * width + k]);
                    }
                    line.fill(column.iter().copied(), wrap[1]);
                    let x = (px + i) as usize;
                    let mut before = line.integral(&ys[0]);
                    for (m, j) in (-pad..rh + pad).enumerate() {
                        let after = line.integral(&ys[m + 1]);
                        if rows.contains(&j) {
                            let y = (py + j) as usize;
                            atlas.pixels[y * stride + x * 4 + c] =
                                transfer.encode((after - before) / step[1] * factor[c]);
                        }
                        before = after;
                    }
                }
            }
        }
        RegionKey::Baked(k) => {
            let Use::Baked { image, factor, uv } = &uses[*k] else {
                unreachable!("a baked key belongs to a baked use")
            };
            let p = primitives[*k];
            let colors = p.colors.as_ref().expect("a baked use has vertex colours");
            let g = region.cells[0];
            let c = i64::from(place.size[0] / g);
            let edge = (c - 1) as f64;
            let mut texels: Vec<[u8; 3]> = memory_for(
                crate::memory::zeroed((rw * rh) as usize),
                None,
                format_args!("baking primitive {k}'s colours into {rw} x {rh} texels"),
            )?;
            for (q, tri) in p.indices.chunks_exact(3).enumerate() {
                let (cx, cy) = ((q as i64 % i64::from(g)) * c, (q as i64 / i64::from(g)) * c);
                for j in 0..c {
                    for i in 0..c {
                        // Barycentric weights of the texel's centre over
                        // the cell's corners (0.5, 0.5), (C - 0.5, 0.5),
                        // (0.5, C - 0.5); past the hypotenuse, the
                        // nearest point of it.
                        let (mut s1, mut s2) = (i as f64 / edge, j as f64 / edge);
                        if s1 + s2 > 1.0 {
                            let sum = s1 + s2;
                            s1 /= sum;
                            s2 /= sum;
                        }
                        let w = [1.0 - s1 - s2, s1, s2];
                        let mut rgb = [0.0f64; 3];
                        let mut at = [0.0f64; 2];
                        for (corner, &v) in tri.iter().enumerate() {
                            let col = colors[v as usize];
                            for ch in 0..3 {
                                rgb[ch] += w[corner] * f64::from(col[ch]);
                            }
                            if let Some(t) = uv.get(v as usize) {
                                at[0] += w[corner] * t[0];
                                at[1] += w[corner] * t[1];
                            }
                        }
                        let tex = match image {
                            Some((im, wrap)) => sample_bilinear(
                                images[*im].as_ref().expect("resolve checked the image"),
                                *wrap,
                                at,
                                transfer,
                            ),
                            None => [1.0; 3],
                        };
                        let out =
                            [0, 1, 2].map(|ch| transfer.encode(rgb[ch] * tex[ch] * factor[ch]));
                        texels[((cy + j) * rw + cx + i) as usize] = out;
                    }
                }
            }
            // Padding: the nearest texel of the region.
            for j in rows {
                for i in cols.clone() {
                    let t = texels[(j.clamp(0, rh - 1) * rw + i.clamp(0, rw - 1)) as usize];
                    put(i, j, t);
                }
            }
        }
    }
    Ok(())
}

/// Bilinear filtering of `image` at `uv` under `wrap`, in linear light.
fn sample_bilinear(image: &Rgba8, wrap: [Wrap; 2], uv: [f64; 2], transfer: &Transfer) -> [f64; 3] {
    let (w, h) = (i64::from(image.width), i64::from(image.height));
    let x = uv[0] * w as f64 - 0.5;
    let y = uv[1] * h as f64 - 0.5;
    let (fx, fy) = (x - x.floor(), y - y.floor());
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    let xs = [wrap_index(x0, w, wrap[0]), wrap_index(x0 + 1, w, wrap[0])];
    let ys = [wrap_index(y0, h, wrap[1]), wrap_index(y0 + 1, h, wrap[1])];
    let mut out = [0.0; 3];
    for (b, &sy) in ys.iter().enumerate() {
        let wy = if b == 0 { 1.0 - fy } else { fy };
        for (a, &sx) in xs.iter().enumerate() {
            let wx = if a == 0 { 1.0 - fx } else { fx };
            let t = image.texel(sx as u32, sy as u32);
            for c in 0..3 {
                out[c] += wx * wy * transfer.to_linear[usize::from(t[c])];
            }
        }
    }
    out
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

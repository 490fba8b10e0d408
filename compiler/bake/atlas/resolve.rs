//! Stages 1 to 3: primitives' base colours into uses, uses grouped into
//! regions, each region's size at scale 1.

use std::collections::BTreeMap;

use crate::model::material::{AlphaMode, Material, Primitive, Wrap};

use super::{
    CELL_SIDE, Error, MAX_UV, Region, RegionKey, SOLID_SIDE, Settings, Transfer, Use,
    material_label,
};

/// Stage 1: a primitive's base colour.
pub(super) fn resolve(
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
pub(super) fn group(
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
pub(super) fn size(
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

//! Stage 5: each region and its padding drawn into the atlas: a solid
//! colour, a texture copied or box-filtered (`Line`'s integrals over
//! `Spot`s), or vertex colours baked.

use crate::model::material::{Primitive, Rgba8, Wrap};

use super::pack::Place;
use super::{Error, Region, RegionKey, Transfer, Use, memory_for};

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
pub(super) fn render(
    atlas: &mut Rgba8,
    region: &Region,
    place: &Place,
    uses: &[Use],
    primitives: &[&Primitive],
    images: &[Option<Rgba8>],
    pad: u32,
    transfer: &Transfer,
) -> Result<(), Error> {
    let draw = Draw::new(atlas, place, pad);
    match &region.key {
        RegionKey::Solid(rgb) => {
            for j in draw.rows.clone() {
                for i in draw.cols.clone() {
                    draw.put(atlas, i, j, *rgb);
                }
            }
            Ok(())
        }
        RegionKey::Textured {
            image,
            wrap,
            factor,
        } => {
            let im = images[*image].as_ref().expect("resolve checked the image");
            let (w, h) = (i64::from(im.width), i64::from(im.height));
            // The tiles the region holds, from `origin` (in source
            // texels); a CLAMP_TO_EDGE axis holds tile 0 only.
            let [[x0, x1], [y0, y1]] = region.tiles;
            let texture = Texture {
                index: *image,
                image: im,
                wrap: *wrap,
                factor: factor.map(f64::from_bits),
                span: [(x1 - x0) * w, (y1 - y0) * h],
                origin: [x0 * w, y0 * h],
            };
            match texture.span == [draw.rw, draw.rh] {
                true => copy_texture(atlas, &draw, &texture, transfer),
                false => filter_texture(atlas, &draw, &texture, transfer),
            }
        }
        RegionKey::Baked(k) => {
            let Use::Baked { image, factor, uv } = &uses[*k] else {
                unreachable!("a baked key belongs to a baked use")
            };
            let image = image.map(|(im, wrap)| {
                let im = images[im].as_ref().expect("resolve checked the image");
                (im, wrap)
            });
            let baked = Baked {
                index: *k,
                primitive: primitives[*k],
                cells: region.cells[0],
                image,
                factor: *factor,
                uv,
            };
            bake_colours(atlas, &draw, &baked, transfer)
        }
    }
}

/// Where a region's texels go: its place in the atlas, and the texels
/// drawn, from the region's top-left: its padding, cut at the atlas's
/// edges (a region packed with a bare border meets them).
struct Draw {
    px: i64,
    py: i64,
    rw: i64,
    rh: i64,
    pad: i64,
    cols: std::ops::Range<i64>,
    rows: std::ops::Range<i64>,
}

impl Draw {
    fn new(atlas: &Rgba8, place: &Place, pad: u32) -> Draw {
        let pad = i64::from(pad);
        let [rw, rh] = place.size.map(i64::from);
        let (px, py) = (i64::from(place.x), i64::from(place.y));
        let (aw, ah) = (i64::from(atlas.width), i64::from(atlas.height));
        Draw {
            px,
            py,
            rw,
            rh,
            pad,
            cols: -pad.min(px)..rw + pad.min(aw - px - rw),
            rows: -pad.min(py)..rh + pad.min(ah - py - rh),
        }
    }

    /// Sets the colour of the texel at (`i`, `j`) from the region's
    /// top-left.
    fn put(&self, atlas: &mut Rgba8, i: i64, j: i64, rgb: [u8; 3]) {
        let at = ((self.py + j) as usize * atlas.width as usize + (self.px + i) as usize) * 4;
        atlas.pixels[at..at + 3].copy_from_slice(&rgb);
    }
}

/// A textured region's source: the image (its index, for errors), its
/// wrap modes and factor, and the texels the region holds from `origin`
/// (`span` of them a side, in source texels).
struct Texture<'a> {
    index: usize,
    image: &'a Rgba8,
    wrap: [Wrap; 2],
    factor: [f64; 3],
    span: [i64; 2],
    origin: [i64; 2],
}

/// Scale 1: texel for texel, the wrap continuing past the edges. Each
/// channel goes through a table of what its 256 codes become times the
/// factor (the identity for 1).
fn copy_texture(
    atlas: &mut Rgba8,
    draw: &Draw,
    tex: &Texture,
    transfer: &Transfer,
) -> Result<(), Error> {
    let (im, factor, wrap, origin) = (tex.image, tex.factor, tex.wrap, tex.origin);
    let (w, h) = (i64::from(im.width), i64::from(im.height));
    let table: [[u8; 256]; 3] = std::array::from_fn(|c| {
        std::array::from_fn(|code| {
            if factor[c] == 1.0 {
                code as u8
            } else {
                transfer.encode(transfer.to_linear[code] * factor[c])
            }
        })
    });
    let cols = draw.cols.clone();
    let mut sxs: Vec<usize> = memory_for(
        crate::memory::with_capacity(cols.clone().count()),
        Some(tex.index),
        format_args!("copying it ({w} x {h})"),
    )?;
    sxs.extend(cols.clone().map(|i| wrap_index(origin[0] + i, w, wrap[0])));
    let stride = atlas.width as usize * 4;
    let x0 = (draw.px + cols.start) as usize * 4;
    for j in draw.rows.clone() {
        let sy = wrap_index(origin[1] + j, h, wrap[1]);
        let src = &im.pixels[sy * w as usize * 4..][..w as usize * 4];
        let y = (draw.py + j) as usize;
        let dst = &mut atlas.pixels[y * stride + x0..][..sxs.len() * 4];
        for (d, &sx) in dst.chunks_exact_mut(4).zip(&sxs) {
            let t = &src[sx * 4..sx * 4 + 3];
            d[0] = table[0][usize::from(t[0])];
            d[1] = table[1][usize::from(t[1])];
            d[2] = table[2][usize::from(t[2])];
        }
    }
    Ok(())
}

/// Box filter, separable: each source row is averaged over each atlas
/// column's footprint, then each column over each row's. The box edges
/// are the same for every row (and column), so they are decomposed once.
fn filter_texture(
    atlas: &mut Rgba8,
    draw: &Draw,
    tex: &Texture,
    transfer: &Transfer,
) -> Result<(), Error> {
    let (im, factor, wrap, origin, span) = (tex.image, tex.factor, tex.wrap, tex.origin, tex.span);
    let (w, h) = (i64::from(im.width), i64::from(im.height));
    let (rw, rh, pad, px, py) = (draw.rw, draw.rh, draw.pad, draw.px, draw.py);
    let width = (rw + 2 * pad) as usize;
    let step = [span[0] as f64 / rw as f64, span[1] as f64 / rh as f64];
    let period = |side: i64, w: Wrap| side as usize * if w == Wrap::MirroredRepeat { 2 } else { 1 };
    // One channel at a time: the row pass averages each source row over
    // each atlas column's footprint into `across` (the region's width by
    // the image's height, f32: 4 bytes a texel, at most 0.13 times the
    // decoded image), then the column pass averages each column over each
    // row's footprint. Every buffer is asked for once, here.
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
        Some(tex.index),
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
            if !draw.cols.contains(&i) {
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
                if draw.rows.contains(&j) {
                    let y = (py + j) as usize;
                    atlas.pixels[y * stride + x * 4 + c] =
                        transfer.encode((after - before) / step[1] * factor[c]);
                }
                before = after;
            }
        }
    }
    Ok(())
}

/// A baked region's source: the primitive (its index, for errors), the
/// cells a side of its grid, and its use's texture, factor and UVs.
struct Baked<'a> {
    index: usize,
    primitive: &'a Primitive,
    cells: u32,
    image: Option<(&'a Rgba8, [Wrap; 2])>,
    factor: [f64; 3],
    uv: &'a [[f64; 2]],
}

/// Vertex colours baked: a cell per triangle, each texel the colours (and
/// the texture, sampled bilinearly at the interpolated UV) at its centre's
/// barycentric weights; the padding the nearest texel of the region.
fn bake_colours(
    atlas: &mut Rgba8,
    draw: &Draw,
    baked: &Baked,
    transfer: &Transfer,
) -> Result<(), Error> {
    let (rw, rh, k, p) = (draw.rw, draw.rh, baked.index, baked.primitive);
    let colors = p.colors.as_ref().expect("a baked use has vertex colours");
    let g = baked.cells;
    let c = rw / i64::from(g);
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
                // Barycentric weights of the texel's centre over the
                // cell's corners (0.5, 0.5), (C - 0.5, 0.5), (0.5, C -
                // 0.5); past the hypotenuse, the nearest point of it.
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
                    if let Some(t) = baked.uv.get(v as usize) {
                        at[0] += w[corner] * t[0];
                        at[1] += w[corner] * t[1];
                    }
                }
                let tex = match baked.image {
                    Some((im, wrap)) => sample_bilinear(im, wrap, at, transfer),
                    None => [1.0; 3],
                };
                let factor = baked.factor;
                let out = [0, 1, 2].map(|ch| transfer.encode(rgb[ch] * tex[ch] * factor[ch]));
                texels[((cy + j) * rw + cx + i) as usize] = out;
            }
        }
    }
    // Padding: the nearest texel of the region.
    for j in draw.rows.clone() {
        for i in draw.cols.clone() {
            let t = texels[(j.clamp(0, rh - 1) * rw + i.clamp(0, rw - 1)) as usize];
            draw.put(atlas, i, j, t);
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

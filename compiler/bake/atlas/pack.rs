//! Stage 4: regions packed on shelves into the smallest atlas.

use super::{CELL_SIDE, Error, Region, RegionKey, Settings};

/// Where a region landed: its top-left texel (padding excluded) and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Place {
    pub(super) x: u32,
    pub(super) y: u32,
    pub(super) size: [u32; 2],
}

/// Stage 4: an atlas size, the fit scale and each region's place.
pub(super) fn pack(
    regions: &[Region],
    settings: &Settings,
) -> Result<(u32, u32, f64, Vec<Place>), Error> {
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
pub(super) enum Border {
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

//! An albedo atlas the material stage made, described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::bake::atlas::{Atlas, RegionKind};

pub fn data(a: &Atlas) -> Value {
    json!({
        "width": a.image.width,
        "height": a.image.height,
        "fill_ratio": a.fill_ratio(),
        "fit_scale": a.fit_scale,
        "regions": a.regions.iter().map(|r| json!({
            "materials": r.materials,
            "kind": match r.kind {
                RegionKind::Solid => "solid",
                RegionKind::Textured => "textured",
                RegionKind::Baked => "baked",
            },
            "image": r.image,
            "rect": r.rect,
            "scale": r.scale,
            "tiles": r.tiles,
        })).collect::<Vec<_>>(),
        "warnings": a.warnings,
    })
}

/// The atlas in lines of text: its size and fill, then each region.
pub fn text(o: &mut dyn Write, file: &str, a: &Atlas, png: &str) -> io::Result<()> {
    say!(
        o,
        "{}: atlas {} x {}, {} regions, {:.1} % filled; wrote {}",
        file,
        a.image.width,
        a.image.height,
        a.regions.len(),
        a.fill_ratio() * 100.0,
        png
    );
    for r in &a.regions {
        let [x, y, w, h] = r.rect;
        let what = match (r.kind, r.image) {
            (RegionKind::Solid, _) => "solid colour".to_string(),
            (RegionKind::Baked, _) => "vertex colours baked per triangle".to_string(),
            (RegionKind::Textured, Some(i)) => format!(
                "image {i}, {} x {} tiles, scale {:.3} x {:.3}",
                r.tiles[0], r.tiles[1], r.scale[0], r.scale[1]
            ),
            (RegionKind::Textured, None) => "texture".to_string(),
        };
        say!(
            o,
            "  {w:>4} x {h:<4} at ({x}, {y}): {} — {what}",
            r.materials.join(", ")
        );
    }
    for w in &a.warnings {
        say!(o, "  warning: {w}");
    }
    Ok(())
}

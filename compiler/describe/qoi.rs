//! A QOI image, described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::qoi;

pub(super) fn data(q: &qoi::Image) -> Value {
    json!({
        "format": "qoi",
        "width": q.header.width,
        "height": q.header.height,
        "channels": q.header.channels as u8,
        "colorspace": match q.header.colorspace {
            qoi::Colorspace::Srgb => "srgb",
            qoi::Colorspace::Linear => "linear",
        },
        "opaque": q.is_opaque(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, q: &qoi::Image) -> io::Result<()> {
    let v = data(q);
    say!(
        o,
        "{}: QOI image {} x {}, {} channels, colorspace {} ({}){}",
        file,
        q.header.width,
        q.header.height,
        q.header.channels as u8,
        q.header.colorspace as u8,
        v["colorspace"].as_str().unwrap_or(""),
        if q.is_opaque() { ", opaque" } else { "" }
    );
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(q: &qoi::Image) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid QOI image ({} x {}, {} channels, colorspace {})",
        q.header.width, q.header.height, q.header.channels as u8, q.header.colorspace as u8
    ))
}

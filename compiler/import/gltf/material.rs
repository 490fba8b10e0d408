//! Materials, textures, samplers and images: what a material's base colour
//! is made of.
//!
//! Reads `pbrMetallicRoughness.baseColorFactor` and `baseColorTexture`
//! (its `texCoord`, its texture's sampler, `KHR_texture_transform`'s
//! offset, rotation, scale and `texCoord` override) and `alphaMode`; and
//! the encoded bytes of every image a base colour texture shows (from a
//! buffer view, a `data:` URI or a file beside the source). Other textures
//! (normal, occlusion, …) are not read: the atlas holds albedo only.
//!
//! Rejects: an index out of range, a factor outside 0..=1 or not finite,
//! a transform value that is not finite, an unknown wrap or filter code,
//! an unknown `alphaMode`, a base colour texture without a PNG or JPEG
//! source (`EXT_texture_webp`, `KHR_texture_basisu`, … only), an image with
//! neither `uri` nor `bufferView`, or with both.

use std::borrow::Cow;

use crate::model::material::{
    AlphaMode, BaseColorTexture, EncodedImage, Filter, ImageOrigin, Material, Sampler,
    TextureTransform, Wrap,
};

use super::json::{self, Document};
use super::{Asset, Error, buffers, place};

pub(crate) fn read(
    asset: &Asset<'_>,
    image_files: &[(String, Vec<u8>)],
) -> Result<(Vec<Material>, Vec<Option<EncodedImage>>), Error> {
    let doc = asset.document();
    let materials = doc
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| material(doc, i, m))
        .collect::<Result<Vec<_>, _>>()?;
    let used = buffers::base_color_images(doc);
    let mut images = vec![None; doc.images.len()];
    for i in used {
        images[i] = Some(image(asset, i, image_files)?);
    }
    Ok((materials, images))
}

fn material(doc: &Document, i: usize, m: &json::Material) -> Result<Material, Error> {
    let path = format!("materials[{i}]");
    let pbr = m.pbr_metallic_roughness.as_ref();
    let factor = pbr.and_then(|p| p.base_color_factor).unwrap_or([1.0; 4]);
    if let Some(k) = factor
        .iter()
        .position(|v| !(v.is_finite() && (0.0..=1.0).contains(v)))
    {
        return Err(Error::at(
            format!("{path}.pbrMetallicRoughness.baseColorFactor[{k}]"),
            format!("{} is not in 0..=1", factor[k]),
        ));
    }
    let texture = match pbr.and_then(|p| p.base_color_texture.as_ref()) {
        None => None,
        Some(info) => Some(
            base_color_texture(doc, info)
                .map_err(|e| e.context(format!("{path}.pbrMetallicRoughness.baseColorTexture")))?,
        ),
    };
    let alpha_mode = match m.alpha_mode.as_deref() {
        None | Some("OPAQUE") => AlphaMode::Opaque,
        Some("MASK") => AlphaMode::Mask,
        Some("BLEND") => AlphaMode::Blend,
        Some(other) => {
            return Err(Error::at(
                format!("{path}.alphaMode"),
                format!("{other:?} is not OPAQUE, MASK or BLEND"),
            ));
        }
    };
    Ok(Material {
        name: m.name.clone(),
        base_color_factor: factor,
        base_color_texture: texture,
        alpha_mode,
    })
}

fn base_color_texture(doc: &Document, info: &json::TextureInfo) -> Result<BaseColorTexture, Error> {
    let Some(texture) = doc.textures.get(info.index) else {
        return Err(Error::at(
            "index",
            format!(
                "texture {} does not exist ({} textures)",
                info.index,
                doc.textures.len()
            ),
        ));
    };
    let tpath = format!("textures[{}]", info.index);
    let Some(image) = texture.source else {
        return Err(Error::at(
            format!("{tpath}.source"),
            "the texture has no PNG or JPEG source (kiln does not decode WebP, KTX2 or AVIF images)",
        ));
    };
    if image >= doc.images.len() {
        return Err(Error::at(
            format!("{tpath}.source"),
            format!("image {image} does not exist ({} images)", doc.images.len()),
        ));
    }
    let sampler = match texture.sampler {
        None => Sampler::DEFAULT,
        Some(s) => {
            let Some(def) = doc.samplers.get(s) else {
                return Err(Error::at(
                    format!("{tpath}.sampler"),
                    format!(
                        "sampler {s} does not exist ({} samplers)",
                        doc.samplers.len()
                    ),
                ));
            };
            sampler(def).map_err(|e| e.context(format!("samplers[{s}]")))?
        }
    };
    let (transform, tex_coord) = match &info.extensions.transform {
        None => (TextureTransform::IDENTITY, info.tex_coord),
        Some(t) => {
            let transform = TextureTransform {
                offset: t.offset.unwrap_or([0.0, 0.0]),
                rotation: t.rotation.unwrap_or(0.0),
                scale: t.scale.unwrap_or([1.0, 1.0]),
            };
            let values = [
                transform.offset[0],
                transform.offset[1],
                transform.rotation,
                transform.scale[0],
                transform.scale[1],
            ];
            if values.iter().any(|v| !v.is_finite()) {
                return Err(Error::at(
                    "extensions.KHR_texture_transform",
                    format!("offset, rotation and scale must be finite, found {values:?}"),
                ));
            }
            (transform, t.tex_coord.unwrap_or(info.tex_coord))
        }
    };
    Ok(BaseColorTexture {
        image,
        sampler,
        tex_coord,
        transform,
    })
}

fn sampler(def: &json::SamplerDef) -> Result<Sampler, Error> {
    let wrap = |code: Option<u32>, key: &str| match code {
        None | Some(10497) => Ok(Wrap::Repeat),
        Some(33648) => Ok(Wrap::MirroredRepeat),
        Some(33071) => Ok(Wrap::ClampToEdge),
        Some(c) => Err(Error::at(
            key,
            format!("{c} is not a wrap mode (10497, 33648 or 33071)"),
        )),
    };
    let mag_filter = match def.mag_filter {
        None | Some(9729) => Filter::Linear,
        Some(9728) => Filter::Nearest,
        Some(c) => {
            return Err(Error::at(
                "magFilter",
                format!("{c} is not a filter (9728 or 9729)"),
            ));
        }
    };
    if let Some(c) = def.min_filter
        && !matches!(c, 9728 | 9729 | 9984..=9987)
    {
        return Err(Error::at(
            "minFilter",
            format!("{c} is not a minification filter (9728, 9729 or 9984 to 9987)"),
        ));
    }
    Ok(Sampler {
        wrap_s: wrap(def.wrap_s, "wrapS")?,
        wrap_t: wrap(def.wrap_t, "wrapT")?,
        mag_filter,
    })
}

fn image(asset: &Asset<'_>, i: usize, files: &[(String, Vec<u8>)]) -> Result<EncodedImage, Error> {
    let def = &asset.document().images[i];
    let path = format!("images[{i}]");
    let bytes = match (&def.uri, def.buffer_view) {
        (Some(uri), None) => buffers::image_uri_bytes(i, uri, files)?,
        (None, Some(view)) => match asset.view(view) {
            Some(bytes) => Cow::Borrowed(bytes),
            None => {
                return Err(Error::at(
                    format!("{path}.bufferView"),
                    format!("buffer view {view} does not exist"),
                ));
            }
        },
        (Some(_), Some(_)) => {
            return Err(Error::at(&path, "has both uri and bufferView"));
        }
        (None, None) => return Err(Error::at(&path, "has neither uri nor bufferView")),
    };
    let beside = |b: &[u8]| {
        files
            .iter()
            .find_map(|(name, f)| Some((name.as_str(), place::within(f, b)?)))
    };
    let origin = match (asset.locate(&bytes), beside(&bytes)) {
        (Some((None, at)), _) => ImageOrigin::InFile { at: at as u64 },
        (Some((Some(name), at)), _) | (None, Some((name, at))) => ImageOrigin::Beside {
            name: name.to_string(),
            at: at as u64,
        },
        (None, None) => ImageOrigin::Decoded {
            json_at: asset.offset_of(&format!("{path}: ")),
        },
    };
    Ok(EncodedImage {
        name: def.name.clone(),
        bytes: bytes.into_owned(),
        origin,
    })
}

//! Writing a valid document's one canonical byte string.

use super::validate::check;
use super::{Document, Error, ImageCheck, MAGIC, NO_PARENT, VERSION};

/// Validates `doc` and writes its canonical bytes.
pub fn encode(doc: &Document) -> Result<Vec<u8>, Error> {
    encode_with(doc, ImageCheck::Full)
}

/// [`encode`], checking the atlases as far as `images` says (every other
/// rule in full).
pub fn encode_with(doc: &Document, images: ImageCheck) -> Result<Vec<u8>, Error> {
    let problems = check(doc, &|_| None, images);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let len = doc
        .encoded_len()
        .expect("a valid document is at most 64 MiB");
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(&(doc.models.len() as u16).to_le_bytes());
    out.extend_from_slice(&(doc.banks.len() as u16).to_le_bytes());
    let name = |out: &mut Vec<u8>, s: &str| {
        out.push(s.len() as u8);
        out.extend_from_slice(s.as_bytes());
    };
    let u32_ = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    let floats = |out: &mut Vec<u8>, vs: &[f32]| {
        for v in vs {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    for m in &doc.models {
        name(&mut out, &m.id);
        u32_(&mut out, m.bank as usize);
        u32_(&mut out, m.nodes.len());
        for n in &m.nodes {
            name(&mut out, &n.name);
            out.extend_from_slice(&n.parent.unwrap_or(NO_PARENT).to_le_bytes());
            floats(&mut out, &n.translation);
            floats(&mut out, &n.rotation);
            floats(&mut out, &n.scale);
        }
        u32_(&mut out, m.mesh_node as usize);
        u32_(&mut out, m.joints.len());
        for j in &m.joints {
            out.extend_from_slice(&j.to_le_bytes());
        }
        for ibm in &m.inverse_bind {
            floats(&mut out, ibm);
        }
        u32_(&mut out, m.vertices.len());
        for v in &m.vertices {
            floats(&mut out, v);
        }
        u32_(&mut out, m.indices.len());
        for i in &m.indices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        u32_(&mut out, m.image.width as usize);
        u32_(&mut out, m.image.height as usize);
        u32_(&mut out, m.image.qoi.len());
        out.extend_from_slice(&m.image.qoi);
    }
    for b in &doc.banks {
        name(&mut out, &b.id);
        u32_(&mut out, b.clips.len());
        for c in &b.clips {
            name(&mut out, &c.name);
            floats(&mut out, &[c.duration_s]);
            u32_(&mut out, c.tracks.len());
            for t in &c.tracks {
                name(&mut out, &t.node);
                out.push(t.path as u8);
                out.push(u8::from(t.step));
                out.extend_from_slice(&[0, 0]);
                u32_(&mut out, t.times_s.len());
                floats(&mut out, &t.times_s);
                floats(&mut out, &t.values);
            }
        }
    }
    debug_assert_eq!(out.len(), len);
    Ok(out)
}

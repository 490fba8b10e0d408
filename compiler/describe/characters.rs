//! A compiled characters entry (KCHR v1), described with its level's `level.json`.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::kchr;

pub struct CharactersFile {
    pub doc: kchr::Document,
    pub bytes: usize,
    pub level: Option<serde_json::Value>,
}

/// What `level.json` says of a clip the file holds: (bank, clip) -> its
/// entry (`keys_source`, `error_m`).
fn level_clip<'a>(c: &'a CharactersFile, bank: &str, clip: &str) -> Option<&'a Value> {
    let banks = c.level.as_ref()?["characters"]["banks"].as_array()?;
    let b = banks.iter().find(|b| b["id"] == bank)?;
    let clips = b["clips"].as_array()?;
    clips.iter().find(|x| x["name"] == clip)
}

/// Key counts before reduction, from `level.json`.
fn source_keys(c: &CharactersFile, bank: &str, clip: &str) -> Option<u64> {
    level_clip(c, bank, clip)?["keys_source"].as_u64()
}

/// The worst skin error the compiler measured for the clip (metres), from
/// `level.json`.
fn clip_error_m(c: &CharactersFile, bank: &str, clip: &str) -> Option<f64> {
    level_clip(c, bank, clip)?["error_m"].as_f64()
}

fn clip_keys(clip: &kchr::Clip) -> usize {
    clip.tracks.iter().map(|t| t.keys()).sum()
}

pub(super) fn data(c: &CharactersFile) -> Value {
    let doc = &c.doc;
    json!({
        "format": "compiled characters",
        "version": kchr::VERSION,
        "feature": kchr::FEATURE,
        "bytes": c.bytes,
        "models": doc.models.iter().map(|m| json!({
            "id": m.id,
            "bank": doc.banks[m.bank as usize].id,
            "nodes": m.nodes.iter().map(|n| json!({
                "name": n.name,
                "parent": n.parent.map(|p| m.nodes[p as usize].name.clone()),
            })).collect::<Vec<_>>(),
            "mesh_node": m.nodes[m.mesh_node as usize].name,
            "palette": m.joints.iter().map(|&j| m.nodes[j as usize].name.clone()).collect::<Vec<_>>(),
            "vertices": m.vertices.len(),
            "triangles": m.indices.len() / 3,
            "atlas": {"width": m.image.width, "height": m.image.height, "qoi_bytes": m.image.qoi.len()},
        })).collect::<Vec<_>>(),
        "banks": doc.banks.iter().map(|b| json!({
            "id": b.id,
            "clips": b.clips.iter().map(|clip| json!({
                "name": clip.name,
                "duration_s": clip.duration_s,
                "keys": clip_keys(clip),
                "keys_source": source_keys(c, &b.id, &clip.name),
                "error_m": clip_error_m(c, &b.id, &clip.name),
                "tracks": clip.tracks.iter().map(|t| json!({
                    "node": t.node,
                    "path": t.path.name(),
                    "interpolation": if t.step { "step" } else { "linear" },
                    "keys": t.keys(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The file as `kiln view`'s page draws it: each model's node tree (bind
/// TRS), palette, inverse-bind matrices, vertices and triangles, skinned
/// and textured with its atlas (the section's picture `atlas`), and every
/// clip of its bank, for the page to play by the runtime's rules. Floats
/// in arrays are base64 little-endian `f32`s (the file's own values);
/// single floats are JSON numbers of the same value.
pub(super) fn scene(c: &CharactersFile) -> Value {
    let doc = &c.doc;
    let f64s = |v: &[f32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
    json!({
        "kind": "characters",
        "models": doc.models.iter().enumerate().map(|(k, m)| json!({
            "id": m.id,
            "bank": m.bank,
            "atlas": k,
            "nodes": m.nodes.iter().map(|n| json!({
                "name": n.name,
                "parent": n.parent.map_or(-1, i64::from),
                "translation": f64s(&n.translation),
                "rotation": f64s(&n.rotation),
                "scale": f64s(&n.scale),
            })).collect::<Vec<_>>(),
            "mesh_node": m.mesh_node,
            "joints": m.joints,
            "inverse_bind": super::f32s_base64(m.inverse_bind.iter().flatten().copied()),
            "vertex_count": m.vertices.len(),
            "vertices": super::f32s_base64(m.vertices.iter().flatten().copied()),
            "indices": super::le_base64(m.indices.iter().map(|i| i.to_le_bytes())),
        })).collect::<Vec<_>>(),
        "banks": doc.banks.iter().map(|b| json!({
            "id": b.id,
            "clips": b.clips.iter().map(|clip| json!({
                "name": clip.name,
                "duration_s": f64::from(clip.duration_s),
                "tracks": clip.tracks.iter().map(|t| json!({
                    "node": t.node,
                    "path": t.path.name(),
                    "step": t.step,
                    "times_s": super::f32s_base64(t.times_s.iter().copied()),
                    "values": super::f32s_base64(t.values.iter().copied()),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, c: &CharactersFile) -> io::Result<()> {
    let doc = &c.doc;
    say!(
        o,
        "{}: compiled characters (KCHR v{}, {}), {} bytes: {} models, {} banks",
        file,
        kchr::VERSION,
        kchr::FEATURE,
        c.bytes,
        doc.models.len(),
        doc.banks.len()
    );
    for m in &doc.models {
        say!(
            o,
            "  model {}: bank {}, {} nodes, {} joints in the palette, {} vertices, {} triangles, atlas {} x {}",
            m.id,
            doc.banks[m.bank as usize].id,
            m.nodes.len(),
            m.joints.len(),
            m.vertices.len(),
            m.indices.len() / 3,
            m.image.width,
            m.image.height
        );
        let palette: Vec<&str> = m
            .joints
            .iter()
            .map(|&j| m.nodes[j as usize].name.as_str())
            .collect();
        say!(o, "    palette: {}", palette.join(", "));
    }
    for b in &doc.banks {
        let keys: usize = b.clips.iter().map(clip_keys).sum();
        say!(o, "  bank {}: {} clips, {keys} keys", b.id, b.clips.len());
        for clip in &b.clips {
            let before = source_keys(c, &b.id, &clip.name)
                .map(|k| format!(" ({k} before reduction)"))
                .unwrap_or_default();
            let within = clip_error_m(c, &b.id, &clip.name)
                .map(|m| {
                    format!(
                        ", the skin within {} of the source",
                        crate::bake::character::millimetres(m)
                    )
                })
                .unwrap_or_default();
            say!(
                o,
                "    clip {}: {:.3} s, {} tracks, {} keys{before}{within}",
                clip.name,
                clip.duration_s,
                clip.tracks.len(),
                clip_keys(clip)
            );
        }
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(c: &CharactersFile) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid compiled characters (KCHR v1, {}): {} models, {} banks, {} clips",
        kchr::FEATURE,
        c.doc.models.len(),
        c.doc.banks.len(),
        c.doc.banks.iter().map(|b| b.clips.len()).sum::<usize>()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn decoded(v: &Value) -> Vec<u8> {
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap()
    }

    fn f32s(v: &Value) -> Vec<f32> {
        decoded(v)
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    fn node(name: &str, parent: Option<u32>, y: f32) -> kchr::Node {
        kchr::Node {
            name: name.into(),
            parent,
            translation: [0.1, y, -0.3],
            rotation: [0.0, 0.6, 0.0, 0.8],
            scale: [1.0, 2.0, 0.5],
        }
    }

    #[test]
    fn the_scene_is_every_model_and_clip_as_the_file_holds_it() {
        let mut vertex = [0.0f32; kchr::VERTEX_STRIDE];
        vertex
            .iter_mut()
            .enumerate()
            .for_each(|(i, v)| *v = i as f32 * 0.1);
        let model = kchr::Model {
            id: "fox".into(),
            bank: 1,
            nodes: vec![node("root", None, 0.7), node("hip", Some(0), 1.1)],
            mesh_node: 0,
            joints: vec![1],
            inverse_bind: vec![std::array::from_fn(|i| i as f32 / 3.0)],
            vertices: vec![vertex, vertex.map(|v| -v)],
            indices: vec![0, 1, 65_535],
            image: kchr::Image {
                width: 1,
                height: 1,
                qoi: Vec::new(),
            },
        };
        let track = kchr::Track {
            node: "hip".into(),
            path: kchr::Path::Rotation,
            step: true,
            times_s: vec![0.0, 0.1],
            values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.6, 0.0, 0.8],
        };
        let bank = |id: &str, clips| kchr::Bank {
            id: id.into(),
            clips,
        };
        let clip = kchr::Clip {
            name: "run".into(),
            duration_s: 0.1,
            tracks: vec![track.clone()],
        };
        let file = CharactersFile {
            doc: kchr::Document {
                models: vec![
                    model.clone(),
                    kchr::Model {
                        id: "cub".into(),
                        bank: 0,
                        ..model.clone()
                    },
                ],
                banks: vec![bank("a", Vec::new()), bank("b", vec![clip])],
            },
            bytes: 0,
            level: None,
        };
        let s = scene(&file);
        assert_eq!(s["kind"], "characters");
        let m = &s["models"][0];
        assert_eq!(
            (m["id"].as_str(), m["bank"].as_u64(), m["atlas"].as_u64()),
            (Some("fox"), Some(1), Some(0))
        );
        assert_eq!(s["models"][1]["atlas"], 1);
        assert_eq!(s["models"][1]["bank"], 0);
        assert_eq!(m["nodes"][0]["parent"], -1);
        assert_eq!(m["nodes"][1]["parent"], 0);
        // Single floats are the file's f32 values exactly.
        assert_eq!(
            m["nodes"][1]["translation"][1].as_f64(),
            Some(f64::from(1.1f32))
        );
        assert_eq!(
            m["nodes"][1]["rotation"],
            json!([0.0, f64::from(0.6f32), 0.0, f64::from(0.8f32)])
        );
        assert_eq!(m["nodes"][1]["scale"], json!([1.0, 2.0, 0.5]));
        assert_eq!(
            (m["mesh_node"].as_u64(), m["joints"].clone()),
            (Some(0), json!([1]))
        );
        assert_eq!(f32s(&m["inverse_bind"]), model.inverse_bind.concat());
        assert_eq!(m["vertex_count"], 2);
        assert_eq!(f32s(&m["vertices"]), model.vertices.concat());
        assert_eq!(decoded(&m["indices"]), [0, 0, 1, 0, 255, 255]);
        assert_eq!(s["banks"][0]["clips"], json!([]));
        let c = &s["banks"][1]["clips"][0];
        assert_eq!(
            (c["name"].as_str(), c["duration_s"].as_f64()),
            (Some("run"), Some(f64::from(0.1f32)))
        );
        let t = &c["tracks"][0];
        assert_eq!(
            (t["node"].as_str(), t["path"].as_str(), t["step"].as_bool()),
            (Some("hip"), Some("rotation"), Some(true))
        );
        assert_eq!(f32s(&t["times_s"]), track.times_s);
        assert_eq!(f32s(&t["values"]), track.values);
    }
}

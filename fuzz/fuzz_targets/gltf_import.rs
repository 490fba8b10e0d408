//! The glTF importer on arbitrary bytes, as a `.glb` or `.gltf` with no
//! external files: it may reject them, it must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kiln::import::gltf::import_scene(data, &[]);
});

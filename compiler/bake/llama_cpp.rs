//! What llama.cpp's converter decides about a tensor from its GGUF name,
//! transcribed as data: the tensors it keeps in F32 whatever the output
//! type, and the block size its Q8_0 needs.
//!
//! Source (facts, not code): llama.cpp at 80fb11ac (2026-09-12, the copy
//! the npm package `node-llama-cpp` 3.21.1 bundles), `conversion/base.py`
//! `prepare_tensors`, and the tensor names of gguf-py 0.19.0
//! (`gguf/constants.py`, `TENSOR_NAMES`). `{bid}` is a block number.

/// Tensors llama.cpp's converter writes as F32 under every output type
/// (its "some tensor types are always in float32" list: gating inputs,
/// position and token-type embeddings, convolutions, RWKV's mixes…),
/// by GGUF name.
pub const F32_TENSORS: &[&str] = &[
    "blk.{bid}.ffn_gate_inp.weight",        // FFN_GATE_INP
    "blk.{bid}.ffn_gate_inp_shexp.weight",  // FFN_GATE_INP_SHEXP
    "position_embd.weight",                 // POS_EMBD
    "token_types.weight",                   // TOKEN_TYPES
    "blk.{bid}.ssm_conv1d.weight",          // SSM_CONV1D
    "blk.{bid}.shortconv.conv.weight",      // SHORTCONV_CONV
    "blk.{bid}.time_mix_first.weight",      // TIME_MIX_FIRST
    "blk.{bid}.time_mix_w1.weight",         // TIME_MIX_W1
    "blk.{bid}.time_mix_w2.weight",         // TIME_MIX_W2
    "blk.{bid}.time_mix_decay_w1.weight",   // TIME_MIX_DECAY_W1
    "blk.{bid}.time_mix_decay_w2.weight",   // TIME_MIX_DECAY_W2
    "blk.{bid}.time_mix_lerp_fused.weight", // TIME_MIX_LERP_FUSED
    "posnet.{bid}.norm1.weight",            // POSNET_NORM1
    "posnet.{bid}.norm2.weight",            // POSNET_NORM2
    "v.position_embd.weight",               // V_ENC_EMBD_POS
    "a.position_embd.weight",               // A_ENC_EMBD_POS
    "blk.{bid}.altup_correct_coef.weight",  // ALTUP_CORRECT_COEF
    "blk.{bid}.altup_predict_coef.weight",  // ALTUP_PREDICT_COEF
    "blk.{bid}.ssm_conv1d_q.weight",        // SSM_CONV1D_Q
    "blk.{bid}.ssm_conv1d_k.weight",        // SSM_CONV1D_K
    "blk.{bid}.ssm_conv1d_v.weight",        // SSM_CONV1D_V
    "blk.{bid}.indexer.proj.weight",        // INDEXER_PROJ
];

/// Name endings of the tensors llama.cpp's converter may store in a
/// half or quantized type; any other name stays F32.
pub const CONVERTIBLE_ENDINGS: &[&str] = &[".weight", ".lora_a", ".lora_b"];

/// Whether llama.cpp's converter keeps the tensor `name` (GGUF) of `rank`
/// dimensions in F32 under a half or quantized output type: one dimension
/// or none, a norm (`…_norm.weight`), a name without a convertible ending,
/// or one of [`F32_TENSORS`].
pub fn keeps_f32(name: &str, rank: usize) -> bool {
    rank <= 1
        || name.ends_with("_norm.weight")
        || !CONVERTIBLE_ENDINGS.iter().any(|e| name.ends_with(e))
        || F32_TENSORS.iter().any(|t| matches_block(t, name))
}

/// `name` is `template` with `{bid}` (if any) a run of decimal digits.
fn matches_block(template: &str, name: &str) -> bool {
    match template.split_once("{bid}") {
        None => template == name,
        Some((head, tail)) => name
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())),
    }
}

/// Elements per block of Q8_0 (ggml's `QK8_0`): a tensor's first GGML
/// dimension must be a multiple of it; llama.cpp's converter writes F16
/// where it is not.
pub const Q8_0_BLOCK: u64 = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tensors_the_converter_keeps_in_f32() {
        // BERT's embeddings that crashed llama.cpp as F16 (issue 27).
        assert!(keeps_f32("token_types.weight", 2));
        assert!(keeps_f32("position_embd.weight", 2));
        assert!(keeps_f32("blk.11.ffn_gate_inp.weight", 2));
        assert!(keeps_f32("blk.0.attn_output_norm.weight", 2));
        assert!(keeps_f32("blk.0.attn_q.bias", 2), "not a .weight");
        assert!(keeps_f32("blk.0.attn_q.weight", 1), "one dimension");
        assert!(keeps_f32("blk.0.attn_q.weight", 0));
        assert!(!keeps_f32("blk.0.attn_q.weight", 2));
        assert!(!keeps_f32("token_embd.weight", 2));
        assert!(!keeps_f32("blk.0.lora.lora_a", 2));
        // `{bid}` is a number, nothing else.
        assert!(!keeps_f32("blk.x.ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("blk..ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("blk.1.2.ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("x.position_embd.weight", 2));
    }
}

// llama.cpp itself (the CPU build node-llama-cpp 3.21.1 ships) loads a GGUF
// and embeds each text given:
//
//   node llama_embed.mjs MODEL.gguf TEXT...
//
// prints JSON: [{text, tokens, vector}], `tokens` as llama.cpp's tokenizer
// gives them (without the [CLS]/[SEP] it adds for an embedding), `vector`
// the pooled embedding llama.cpp computes. Run from the folder holding
// node_modules/node-llama-cpp (tests/full.sh installs it).
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const [model, ...texts] = process.argv.slice(2);
const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    logger: (level, message) => process.stderr.write(`[${level}] ${message}`),
});
const m = await llama.loadModel({modelPath: model});
const context = await m.createEmbeddingContext();
const out = [];
for (const text of texts) {
    const tokens = m.tokenize(text, false);
    const embedding = await context.getEmbeddingFor(text);
    out.push({text, tokens: Array.from(tokens), vector: Array.from(embedding.vector)});
}
console.log(JSON.stringify(out));
await context.dispose();
await m.dispose();
await llama.dispose();

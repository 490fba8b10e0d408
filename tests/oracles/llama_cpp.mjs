// llama.cpp itself (the CPU build node-llama-cpp 3.21.1 ships), for the
// full tier's tests of kiln's llama.cpp conversions:
//
//   node llama_cpp.mjs embed MODEL.gguf TEXT...
//       JSON [{text, tokens, vector}]: llama.cpp's tokens of each text
//       (without the [CLS]/[SEP] it adds for an embedding) and the pooled
//       embedding it computes;
//   node llama_cpp.mjs tokenize MODEL.gguf TEXT...
//       JSON [[ids]]: llama.cpp's tokens of each text (no BOS added, no
//       special-token text parsed);
//   node llama_cpp.mjs greedy MODEL.gguf N PROMPTS_JSON
//       JSON: for each prompt (token ids) the N tokens llama.cpp picks at
//       temperature 0.
//
// Run from the folder holding node_modules/node-llama-cpp (tests/full.sh
// installs it).
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const [mode, modelPath, ...rest] = process.argv.slice(2);
const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    logger: (level, message) => process.stderr.write(`[${level}] ${message}`),
});
const model = await llama.loadModel({modelPath});
const out = [];
if (mode === "embed") {
    const context = await model.createEmbeddingContext();
    for (const text of rest) {
        const tokens = model.tokenize(text, false);
        const embedding = await context.getEmbeddingFor(text);
        out.push({text, tokens: Array.from(tokens), vector: Array.from(embedding.vector)});
    }
    await context.dispose();
} else if (mode === "tokenize") {
    for (const text of rest)
        out.push(Array.from(model.tokenize(text, false)));
} else if (mode === "greedy") {
    const [n, prompts] = rest;
    for (const prompt of JSON.parse(prompts)) {
        const context = await model.createContext({contextSize: 256});
        const got = [];
        for await (const token of context.getSequence().evaluate(prompt, {temperature: 0})) {
            got.push(token);
            if (got.length >= Number(n)) break;
        }
        out.push(got);
        await context.dispose();
    }
} else {
    throw new Error(`mode ${mode}: embed, tokenize or greedy`);
}
console.log(JSON.stringify(out));
await model.dispose();
await llama.dispose();

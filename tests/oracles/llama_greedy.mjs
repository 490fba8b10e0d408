// llama.cpp itself (node-llama-cpp 3.21.1's CPU build) continues each
// prompt (token ids) greedily:
//
//   node llama_greedy.mjs MODEL.gguf N PROMPTS_JSON
//
// prints JSON: for each prompt the N tokens llama.cpp picks at temperature
// 0. Run from the folder holding node_modules/node-llama-cpp.
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const [model, n, prompts] = process.argv.slice(2);
const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    logger: (level, message) => process.stderr.write(`[${level}] ${message}`),
});
const m = await llama.loadModel({modelPath: model});
const out = [];
for (const prompt of JSON.parse(prompts)) {
    const context = await m.createContext({contextSize: 256});
    const sequence = context.getSequence();
    const got = [];
    for await (const token of sequence.evaluate(prompt, {temperature: 0})) {
        got.push(token);
        if (got.length >= Number(n)) break;
    }
    out.push(got);
    await context.dispose();
}
console.log(JSON.stringify(out));
await m.dispose();
await llama.dispose();

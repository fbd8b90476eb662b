// The eSpeak NG (WebAssembly) worker thread behind adapters/espeak-speech.ts. Synthesis is
// synchronous WebAssembly work, so it runs here, off the server's event loop. The module is
// compiled once; each request runs the espeak-ng command line in a fresh instance (its file
// system and globals start clean), the text handed in as a file (never as an argument, so no
// text is read as an option), and answers the WAV it wrote and the lines it printed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";
import ESpeakNg from "espeak-ng";

const require = createRequire(import.meta.url);
const compiled = WebAssembly.compile(readFileSync(require.resolve("espeak-ng/dist/espeak-ng.wasm")));
async function run(args, input, outFile) {
  const module = await compiled;
  const lines = [];
  const instance = await ESpeakNg({
    arguments: args,
    print: (line) => lines.push(line),
    printErr: (line) => lines.push(line),
    preRun: [
      (m) => {
        if (input !== undefined) m.FS.writeFile("/input.txt", input);
      },
    ],
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((i) => done(i, module));
      return {};
    },
  });
  return { lines, wav: outFile ? instance.FS.readFile(outFile) : undefined };
}

parentPort.on("message", async ({ id, args, input, outFile }) => {
  try {
    const { lines, wav } = await run(args, input, outFile);
    parentPort.postMessage({ id, lines, wav }, wav ? [wav.buffer] : []);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});

// `make bench-linking` (wasm part): the same catalogue and items as the native run
// (client-core/examples/link_bench.rs writes them), linked by the package's linkText in Node.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { core } from "./core.mjs";

const data = JSON.parse(readFileSync(process.argv[2], "utf8"));
const built = performance.now();
core.loadLinkCatalogue(data.catalogue);
const buildMs = performance.now() - built;
const rates = [];
let links = 0;
for (let run = 0; run < 3; run++) {
  const start = performance.now();
  links = 0;
  for (const item of data.items) links += core.linkText(item).tokens.length;
  rates.push(data.items.length / ((performance.now() - start) / 1000));
}
rates.sort((a, b) => a - b);
console.log(
  `wasm (Node): ${data.catalogue.tokens.length} tokens, ${data.items.length} items: build ${buildMs.toFixed(0)} ms, ` +
    `${rates[1].toFixed(0)} items/s (median of 3; target >= 1,000), ${links} token links`,
);

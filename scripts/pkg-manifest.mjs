// Writes pkg/package.json (conditional exports over the entries scripts/build-pkg.sh wrote, the
// version of client-core's Cargo.toml) and the package's README.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";

const cargo = readFileSync(new URL("../client-core/Cargo.toml", import.meta.url), "utf8");
const field = (name) => new RegExp(`^${name} = "(.*)"$`, "m").exec(cargo)[1];
const pkg = new URL("../pkg/", import.meta.url);
const entry = (dir) => ({ types: `./${dir}/client_core.d.ts`, default: `./${dir}/client_core.js` });

const manifest = {
  name: "@blockbrief/client-core",
  version: field("version"),
  description: field("description"),
  license: "MIT",
  // No "type": node/ is CommonJS; the ESM entries say so in their own package.json.
  exports: {
    ".": {
      node: { import: entry("esm"), require: entry("node") },
      ...entry("bundler"),
    },
    "./web": entry("web"),
    "./web/client_core_bg.wasm": "./web/client_core_bg.wasm",
    "./package.json": "./package.json",
  },
  main: "./node/client_core.js",
  module: "./bundler/client_core.js",
  types: "./bundler/client_core.d.ts",
  files: ["bundler/", "esm/", "node/", "web/", "README.md"],
  // Each entry instantiates its module when imported.
  sideEffects: ["./bundler/client_core.js", "./esm/client_core.js", "./node/client_core.js"],
  engines: { node: ">=20" },
};
writeFileSync(new URL("package.json", pkg), `${JSON.stringify(manifest, null, 2)}\n`);
for (const dir of ["bundler", "web"]) {
  writeFileSync(new URL(`${dir}/package.json`, pkg), `${JSON.stringify({ type: "module" })}\n`);
}
copyFileSync(new URL("../client-core/npm/README.md", import.meta.url), new URL("README.md", pkg));

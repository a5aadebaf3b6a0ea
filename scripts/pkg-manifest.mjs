// Writes pkg/package.json (conditional exports over the entries scripts/build-pkg.sh wrote, the
// version of client-core's Cargo.toml) and the package's README.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";

const cargo = readFileSync(new URL("../client-core/Cargo.toml", import.meta.url), "utf8");
const field = (name) => new RegExp(`^${name} = "(.*)"$`, "m").exec(cargo)[1];
const pkg = new URL("../pkg/", import.meta.url);
// Three modules (client-core/src/wasm.rs): `client_core`, what every page needs,
// `client_core_more`, the rules only some pages use (`@blockbrief/client-core/more`), and
// `client_core_link`, the entity linker (`@blockbrief/client-core/link`).
const MODULES = ["client_core", "client_core_more", "client_core_link"];
const entry = (dir, module = "client_core") => ({ types: `./${dir}/${module}.d.ts`, default: `./${dir}/${module}.js` });
const byName = (module) => ({
  node: { import: entry("esm", module), require: entry("node", module) },
  ...entry("bundler", module),
});

const manifest = {
  name: "@blockbrief/client-core",
  version: field("version"),
  description: field("description"),
  license: "MIT",
  // No "type": node/ is CommonJS; the ESM entries say so in their own package.json.
  exports: {
    ".": byName("client_core"),
    "./more": byName("client_core_more"),
    "./link": byName("client_core_link"),
    "./web": entry("web"),
    "./web/more": entry("web", "client_core_more"),
    "./web/link": entry("web", "client_core_link"),
    "./web/client_core_bg.wasm": "./web/client_core_bg.wasm",
    "./web/client_core_more_bg.wasm": "./web/client_core_more_bg.wasm",
    "./web/client_core_link_bg.wasm": "./web/client_core_link_bg.wasm",
    "./package.json": "./package.json",
  },
  main: "./node/client_core.js",
  module: "./bundler/client_core.js",
  types: "./bundler/client_core.d.ts",
  files: ["bundler/", "esm/", "node/", "web/", "README.md"],
  // Each entry instantiates its module when imported.
  sideEffects: MODULES.flatMap((module) => ["bundler", "esm", "node"].map((dir) => `./${dir}/${module}.js`)),
  engines: { node: ">=20" },
};
writeFileSync(new URL("package.json", pkg), `${JSON.stringify(manifest, null, 2)}\n`);
for (const dir of ["bundler", "web"]) {
  writeFileSync(new URL(`${dir}/package.json`, pkg), `${JSON.stringify({ type: "module" })}\n`);
}
copyFileSync(new URL("../client-core/npm/README.md", import.meta.url), new URL("README.md", pkg));

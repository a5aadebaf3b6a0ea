#!/usr/bin/env bash
# `make pkg`: the npm package @blockbrief/client-core in pkg/. client-core is compiled to wasm32
# once; wasm-bindgen then writes one entry per way the package is loaded, and the package's
# conditional exports pick among them:
#   bundler/  Vite (vite-plugin-wasm), webpack (asyncWebAssembly): `import` in a bundled app
#   esm/      Node `import` (reads the module with node:fs; no flags)
#   node/     Node `require` (CommonJS)
#   web/      a plain page: `import init, {…} from ".../web/client_core.js"; await init();`
# binaryen's own wasm-opt (npm) shrinks each module: Debian's is too old for the reference types
# rustc emits.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

opt_flags=(-Oz --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-multivalue)
cargo build -p client-core --target wasm32-unknown-unknown --profile wasm-release --features wasm
wasm=target/wasm32-unknown-unknown/wasm-release/client_core.wasm
rm -rf pkg
for entry in bundler:bundler esm:experimental-nodejs-module node:nodejs web:web; do
  dir=pkg/${entry%%:*}
  wasm-bindgen --target "${entry#*:}" --out-dir "$dir" --out-name client_core "$wasm"
  wasm-opt "${opt_flags[@]}" "$dir/client_core_bg.wasm" -o "$dir/client_core_bg.wasm.opt"
  mv "$dir/client_core_bg.wasm.opt" "$dir/client_core_bg.wasm"
done
node scripts/pkg-manifest.mjs

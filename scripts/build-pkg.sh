#!/usr/bin/env bash
# `make pkg`: the npm package @blockbrief/client-core in pkg/. client-core is compiled to wasm32
# once per module (src/wasm.rs): `client_core`, which every page loads, `client_core_more` (the
# package's `./more`), which only the pages that use it load, and `client_core_link` (`./link`),
# the entity linker, for the Write page and the alert editor.
# wasm-bindgen then writes one entry per way the package is loaded, and the package's
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
built=target/wasm32-unknown-unknown/wasm-release/client_core.wasm
rm -rf pkg target/pkg-wasm
mkdir -p target/pkg-wasm
for module in client_core:wasm client_core_more:wasm-more client_core_link:wasm-link; do
  # The wasm module is the crate as a `cdylib`, asked for here rather than in Cargo.toml, so the
  # native builds (the server's, the fuzz targets') compile an rlib only.
  cargo rustc -p client-core --lib --crate-type cdylib --target wasm32-unknown-unknown \
    --profile wasm-release --features "${module#*:}"
  cp "$built" "target/pkg-wasm/${module%%:*}.wasm"
done
for name in client_core client_core_more client_core_link; do
  for entry in bundler:bundler esm:experimental-nodejs-module node:nodejs web:web; do
    dir=pkg/${entry%%:*}
    wasm-bindgen --target "${entry#*:}" --out-dir "$dir" --out-name "$name" "target/pkg-wasm/$name.wasm"
    # Every entry gets the same module (only the JS glue differs): wasm-opt runs once per module,
    # for the first entry and for any whose module differs from it.
    bg=$dir/${name}_bg.wasm
    if ! cmp -s "$bg" "target/pkg-wasm/$name.bound.wasm"; then
      cp "$bg" "target/pkg-wasm/$name.bound.wasm"
      wasm-opt "${opt_flags[@]}" "$bg" -o "target/pkg-wasm/$name.opt.wasm"
    fi
    cp "target/pkg-wasm/$name.opt.wasm" "$bg"
  done
done
node scripts/pkg-manifest.mjs

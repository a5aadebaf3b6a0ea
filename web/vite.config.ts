import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import wasm from "vite-plugin-wasm";

const pkg = fileURLToPath(new URL("../pkg/client_core.js", import.meta.url));
const locales = fileURLToPath(new URL("../locales", import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), wasm()],
  resolve: { alias: { "@blockbrief/client-core": pkg, "@locales": locales } },
  server: { fs: { allow: [".."] }, proxy: { "/api": "http://127.0.0.1:8080" } },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // The libraries in a chunk of their own that does not wait for the wasm module: the
        // browser runs them while the module downloads, not in one long task after it.
        codeSplitting: { groups: [{ name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|jotai|i18next|@tanstack)[\\/]/ }] },
      },
    },
  },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});

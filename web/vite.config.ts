import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import type { Plugin, Rollup } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { compression } from "vite-plugin-compression2";
import { defineConfig } from "vitest/config";
import wasm from "vite-plugin-wasm";

// client-core's two modules (client-core/src/wasm.rs), the `bundler` entries of pkg/.
const pkg = (module: string) => fileURLToPath(new URL(`../pkg/bundler/${module}.js`, import.meta.url));
const locales = fileURLToPath(new URL("../locales", import.meta.url));

/** A build step that rewrites the built index.html, with the rest of the bundle at hand. */
function indexHtmlEdit(name: string, edit: (html: string, bundle: Rollup.OutputBundle) => string): Plugin {
  return {
    name,
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const html = bundle["index.html"];
      if (html?.type === "asset") html.source = edit(String(html.source), bundle);
    },
  };
}

/** The stylesheet goes inside index.html. As a file of its own it shared a slow phone link with
 *  the scripts and held the first paint of the news the server writes into the page until they
 *  had downloaded too; inlined, it is a few KB more in a document that is already on its way. */
function inlineStylesheet(): Plugin {
  return indexHtmlEdit("blockbrief:inline-stylesheet", (html, bundle) =>
    html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, file: string) => {
      const css = bundle[file];
      if (css?.type !== "asset") return link;
      delete bundle[file];
      return `<style>${String(css.source)}</style>`;
    }),
  );
}

/** Manrope's faces that the first paint uses (regular, and the 600–700 face of titles), preloaded
 *  so the first visit shows them: with `font-display: optional` a face that is not there at once
 *  is skipped for the whole visit. The Vietnamese subset is preloaded on Vietnamese pages only:
 *  it is marked for the server, which keeps it there (`content::head::render`). */
function preloadFonts(): Plugin {
  return indexHtmlEdit("blockbrief:preload-fonts", (html, bundle) => {
    const link = (file: string) => `<link rel="preload" as="font" type="font/woff2" href="/${file}" crossorigin>`;
    const faces = (subset: string) =>
      Object.keys(bundle)
        .filter((file) => new RegExp(`manrope-${subset}-(400|600)-normal-[^/]*\\.woff2$`).test(file))
        .sort()
        .map(link)
        .join("");
    return html.replace("</head>", `${faces("latin")}<!--vi-fonts-->${faces("vietnamese")}<!--/vi-fonts--></head>`);
  });
}

/** The locale files without the texts only the server sends (the bots' messages and mail): every
 *  reader's first page fetches its language's file. */
function browserLocales(): Plugin {
  const serverOnly = ["bot", "mail"];
  return {
    name: "blockbrief:browser-locales",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]locales[\\/][^\\/]+[\\/]common\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, unknown>;
      for (const key of serverOnly) delete messages[key];
      return { code: JSON.stringify(messages), map: null };
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [
    react(),
    wasm(),
    browserLocales(),
    inlineStylesheet(),
    preloadFonts(),
    // The service worker (`src/sw/sw.ts`) with the built files' list written in, all precached
    // after the first load (about 300 KB gzipped with the wasm module), so that every page opens
    // offline; the app registers it (`features/offline`). The web app manifest is the server's,
    // one per locale.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      injectRegister: false,
      manifest: false,
      injectManifest: { globPatterns: ["**/*.{js,html,wasm,png}"], maximumFileSizeToCacheInBytes: 4 << 20 },
    }),
    // Each built file beside its brotli (quality 11) and gzip (level 9) copies, which the server
    // sends as they are (`ServeDir::precompressed_br`): brotli at its slowest is about a sixth
    // smaller than the gzip the server could afford per request. Not index.html: the server
    // writes each page's head into it (`routes::web::page_shell`).
    compression({ include: /\.(js|css|wasm|svg|json)$/, algorithms: ["brotliCompress", "gzip"], logLevel: "silent" }),
  ],
  resolve: {
    alias: [
      { find: /^@blockbrief\/client-core$/, replacement: pkg("client_core") },
      { find: /^@blockbrief\/client-core\/more$/, replacement: pkg("client_core_more") },
      { find: /^@blockbrief\/client-core\/link$/, replacement: pkg("client_core_link") },
      { find: "@locales", replacement: locales },
    ],
  },
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
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|jotai|i18next|@tanstack)[\\/]/ },
            // The app's shared helpers in one chunk rather than a dozen of 1 KB, each a request
            // with its own headers; not client-core's second and third modules (nor the linking
            // hook that loads the third), which load with their pages.
            {
              name: "app",
              test: (id: string) => /[\\/]web[\\/]src[\\/](lib|components)[\\/]/.test(id) && !/core-more|core-link|lib[\\/]linking/.test(id),
            },
          ],
        },
      },
    },
  },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});

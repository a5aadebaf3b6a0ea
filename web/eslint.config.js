import { readdirSync } from "node:fs";

import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// The direction of imports (as in bulletproof-react): app/ may use everything; features/ use
// lib/ and components/ and another feature only through its index.ts; lib/ and components/ use
// neither app/ nor features/. So there are no app ⇄ features cycles and no reaching into another
// feature's internals.
const FEATURES = readdirSync(`${import.meta.dirname}/src/features`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
const APP = { regex: "(^|/)app/", message: "app/ composes features; features, lib and components do not import it." };
const FEATURES_DIR = { regex: "(^|/)features/", message: "lib/ and components/ are shared: they do not import features." };
const layers = [
  { files: ["src/lib/**", "src/components/**"], rules: restrict([APP, FEATURES_DIR]) },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: restrict([
      APP,
      {
        regex: `^(\\.\\./)+(?!${feature}/)(${FEATURES.join("|")})/.+`,
        message: "Another feature is used through its index.ts only.",
      },
    ]),
  })),
];

export default tseslint.config(
  { ignores: ["dist"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  ...layers,
  {
    files: ["e2e/**/*.mjs"],
    languageOptions: {
      globals: Object.fromEntries(
        ["window", "document", "navigator", "history", "location", "getComputedStyle", "localStorage", "Buffer", "console", "URL", "URLSearchParams", "setTimeout", "process", "fetch", "performance", "PerformanceObserver", "self", "NotificationEvent"].map((g) => [g, "readonly"]),
      ),
    },
  },
);

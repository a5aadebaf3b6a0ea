import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

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
  {
    files: ["e2e/**/*.mjs"],
    languageOptions: {
      globals: Object.fromEntries(
        ["window", "document", "localStorage", "Buffer", "console", "URL", "URLSearchParams", "setTimeout", "process", "fetch", "performance", "PerformanceObserver"].map((g) => [g, "readonly"]),
      ),
    },
  },
);

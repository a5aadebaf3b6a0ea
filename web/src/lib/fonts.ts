// Manrope, bundled (no font host). Loaded with `display: optional`: on a slow first visit the
// page keeps the system font instead of reflowing when Manrope arrives (no layout shift); the
// cached font is used from then on. Latin only: Chinese, Korean and Vietnamese marks fall back.
import regular from "@fontsource/manrope/files/manrope-latin-400-normal.woff2?url";
import semibold from "@fontsource/manrope/files/manrope-latin-600-normal.woff2?url";
import extrabold from "@fontsource/manrope/files/manrope-latin-800-normal.woff2?url";

export function loadFonts(): void {
  for (const [url, weight] of [
    [regular, "400"],
    [semibold, "600"],
    [extrabold, "800"],
  ] as const) {
    const face = new FontFace("Manrope", `url(${url}) format("woff2")`, { weight, display: "optional" });
    document.fonts.add(face);
    void face.load().catch(() => {});
  }
}

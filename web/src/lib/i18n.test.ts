import { describe, expect, it } from "vitest";

import en from "@locales/en/common.json";
import ko from "@locales/ko/common.json";
import vi from "@locales/vi/common.json";
import zhHans from "@locales/zh-Hans/common.json";
import zhHant from "@locales/zh-Hant/common.json";

import { withRetries } from "./i18n";

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe("locales", () => {
  it("translate every key of the web app in all five languages", () => {
    const english = keys(en.web).sort();
    expect(english.length).toBeGreaterThan(100);
    for (const other of [zhHans, zhHant, vi, ko]) expect(keys(other.web).sort()).toEqual(english);
  });

  it("reach the browser without the texts only the server sends (vite.config.ts)", () => {
    for (const messages of [en, zhHans, zhHant, vi, ko]) {
      expect(Object.keys(messages)).toContain("error");
      expect(Object.keys(messages)).not.toContain("bot");
      expect(Object.keys(messages)).not.toContain("mail");
    }
  });
});

describe("withRetries", () => {
  it("retries with doubling delays, then gives up", async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      withRetries(async () => {
        calls++;
        throw new Error("offline");
      }, 3, 10),
    ).rejects.toThrow("offline");
    expect(calls).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
    let tries = 0;
    expect(await withRetries(async () => (++tries < 2 ? Promise.reject(new Error("x")) : "ok"), 5, 1)).toBe("ok");
  });
});

import { beforeEach, describe, expect, it } from "vitest";

import { freshLocalStorage } from "../../testing/storage";
import { forgetSearches, readRecent, RECENT_MAX, rememberSearch, withRecent } from "./recent";

describe("recent searches", () => {
  beforeEach(freshLocalStorage);

  it("puts the newest first, once, whatever its case, and keeps at most eight", () => {
    expect(withRecent(["eth", "Solana"], " solana ")).toEqual(["solana", "eth"]);
    expect(withRecent(["eth"], "   ")).toEqual(["eth"]);
    const many = Array.from({ length: 12 }, (_, i) => `q${i}`).reduce(withRecent, [] as string[]);
    expect(many).toHaveLength(RECENT_MAX);
    expect(many[0]).toBe("q11");
  });

  it("is kept in this browser, and a damaged entry reads as none", () => {
    rememberSearch("bitcoin etf");
    rememberSearch("韓國 交易所");
    expect(readRecent()).toEqual(["韓國 交易所", "bitcoin etf"]);
    localStorage.setItem("bb.recentSearches", "{not json");
    expect(readRecent()).toEqual([]);
    localStorage.setItem("bb.recentSearches", JSON.stringify([1, "ok", null]));
    expect(readRecent()).toEqual(["ok"]);
    forgetSearches();
    expect(readRecent()).toEqual([]);
  });
});

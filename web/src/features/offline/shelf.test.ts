import { beforeEach, describe, expect, it } from "vitest";

import type { FeedDetail } from "../../lib/api-types";
import { freshLocalStorage } from "../../testing/storage";
import { keepForOffline, keptItem, keptItems, SHELF_SIZE } from "./shelf";

const item = (id: number) => ({ id, title: `Item ${id}` }) as FeedDetail;

describe("the offline shelf", () => {
  beforeEach(freshLocalStorage);

  it("keeps the last opened items, newest first, and lets the oldest go", () => {
    for (let id = 1; id <= SHELF_SIZE + 5; id++) keepForOffline(item(id));
    // Opened again: to the front, not twice.
    keepForOffline(item(10));
    const kept = keptItems();
    expect(kept).toHaveLength(SHELF_SIZE);
    const [first, second, third] = kept;
    expect([first.id, second.id, third.id]).toEqual([10, SHELF_SIZE + 5, SHELF_SIZE + 4]);
    expect(keptItem(5)).toBeNull();
    expect(keptItem(6)?.title).toBe("Item 6");
    // Each item's copy goes with it: storage holds the list and 50 copies.
    expect(localStorage.length).toBe(SHELF_SIZE + 1);
  });

  it("survives storage that refuses writes or holds nonsense", () => {
    localStorage.setItem("offline-items", "{not json");
    expect(keptItems()).toEqual([]);
    localStorage.setItem = () => {
      throw new Error("QuotaExceededError");
    };
    expect(() => keepForOffline(item(1))).not.toThrow();
    expect(keptItem(1)).toBeNull();
  });
});

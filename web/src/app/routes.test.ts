import { beforeAll, describe, expect, it } from "vitest";

import { C } from "../lib/core";

// The pages' modules read the session at import; Node has no Web Storage, so a Map stands in.
const memory = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, v),
    removeItem: (k: string) => void memory.delete(k),
  },
});

let routes: typeof import("./routes");
beforeAll(async () => {
  routes = await import("./routes");
});

describe("routes", () => {
  it("give every page client-core lists (the server's 404 rule) a component, and no other", () => {
    expect(Object.keys(routes.PAGES).sort()).toEqual([...C.pages].sort());
  });

  it("match a page with its decoded parameters, and anything else to the not-found page", () => {
    const [tag, params] = routes.match("/tag/%E6%AF%94%E7%89%B9");
    expect(tag).toBe(routes.PAGES["/tag/:code"]);
    expect(params).toEqual({ code: "比特" });
    const [nothing] = routes.match("/feed/1/2");
    expect(Object.values(routes.PAGES)).not.toContain(nothing);
  });
});

// For unit tests, which run in Node: a page's `localStorage`, held in memory.

class MemoryStorage {
  private values = new Map<string, string>();
  get length() {
    return this.values.size;
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  clear() {
    this.values.clear();
  }
}

/** A fresh, empty `localStorage` for the next test. */
export function freshLocalStorage(): void {
  Object.defineProperty(globalThis, "localStorage", { value: new MemoryStorage() as unknown as Storage, configurable: true });
}

// Click and view events, batched: sent at most every few seconds, and on page hide by beacon.
import { C, trackBatchLen } from "./core";

interface Entry {
  type: "click" | "view";
  event: string;
  time: number;
  prop: Record<string, string>;
}

const queue: Entry[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

function props(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { from: "web", ...extra };
  const ic = sessionStorage.getItem("ic");
  if (ic) out.ic = ic;
  return out;
}

function send(batch: Entry[], beacon: boolean): void {
  const body = JSON.stringify({ track_logs: batch });
  if (beacon && navigator.sendBeacon) {
    navigator.sendBeacon("/api/log/track", new Blob([body], { type: "application/json" }));
  } else {
    void fetch("/api/log/track", { method: "POST", headers: { "content-type": "application/json" }, body, keepalive: true }).catch(() => {});
  }
}

/** Sends the queue in batches within client-core's limits (an entry too large for any batch is
 * dropped): one batch now and the rest later, or all at once when the page is going away. */
function flush(beacon = false): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const encoder = new TextEncoder();
  while (queue.length > 0) {
    const taken = trackBatchLen(queue.map((e) => encoder.encode(JSON.stringify(e)).length));
    if (taken === 0) {
      queue.shift();
      continue;
    }
    send(queue.splice(0, taken), beacon);
    if (!beacon) break;
  }
  if (queue.length > 0) timer = setTimeout(() => flush(), C.trackFlushMs);
}

export function track(type: Entry["type"], event: string, extra: Record<string, string> = {}): void {
  queue.push({ type, event, time: Date.now(), prop: props(extra) });
  timer ??= setTimeout(() => flush(), C.trackFlushMs);
}

export function startTracking(): void {
  addEventListener("pagehide", () => flush(true));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flush(true);
  });
}

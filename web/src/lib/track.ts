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

function flush(beacon = false): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (queue.length === 0) return;
  // As many as client-core's batch limits let through; an entry too large to send is dropped.
  const encoder = new TextEncoder();
  const taken = trackBatchLen(queue.map((e) => encoder.encode(JSON.stringify(e)).length));
  const batch = queue.splice(0, Math.max(taken, 1));
  if (taken === 0) return;
  const body = JSON.stringify({ track_logs: batch });
  if (beacon && navigator.sendBeacon) {
    navigator.sendBeacon("/api/log/track", new Blob([body], { type: "application/json" }));
  } else {
    void fetch("/api/log/track", { method: "POST", headers: { "content-type": "application/json" }, body, keepalive: true }).catch(() => {});
  }
  // The rest goes in the next batch.
  if (queue.length > 0) timer = setTimeout(() => flush(beacon), beacon ? 0 : C.trackFlushMs);
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

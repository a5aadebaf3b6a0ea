import { atom, useAtomValue, useSetAtom } from "jotai";
import { useEffect, useRef } from "react";

import { call } from "../../lib/api";
import { streamSubjects } from "../../lib/core";
import { tokenAtom } from "../../lib/session";
import { store } from "../../lib/store";

/** What a page follows live: a subject (`home`, `tag:btc`, `feed:7`) and, for `home`, the tab
 * and languages its list shows. */
export interface LiveWant {
  subject: string;
  tab?: string;
  langs?: string[];
}

export type LiveEvent = "item" | "removed" | "counts" | "comment" | "unread" | "reset";
type Listener = (event: LiveEvent, data: unknown) => void;

/** The subjects pages follow now, each with how many of them follow it. */
const wantsAtom = atom<Map<string, { want: LiveWant; count: number }>>(new Map());
/** Whether the stream is open: while it is down, the header polls the unread count again. */
export const liveUpAtom = atom(false);
/** The signed-in reader's unread count as the stream last said it. */
export const liveUnreadAtom = atom<number | null>(null);

const listeners = new Set<Listener>();

/** Follows `want` while the calling component is shown; `listener` hears its events (and every
 * other subject's: it keeps to what it wants). */
export function useLive(want: LiveWant | null, listener: Listener) {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  const key = want ? JSON.stringify(want) : null;
  useEffect(() => {
    if (!key) return;
    const parsed = JSON.parse(key) as LiveWant;
    const heard: Listener = (event, data) => latest.current(event, data);
    listeners.add(heard);
    store.set(wantsAtom, (wants) => {
      const next = new Map(wants);
      next.set(key, { want: parsed, count: (next.get(key)?.count ?? 0) + 1 });
      return next;
    });
    return () => {
      listeners.delete(heard);
      store.set(wantsAtom, (wants) => {
        const next = new Map(wants);
        const left = (next.get(key)?.count ?? 1) - 1;
        if (left > 0) next.set(key, { want: parsed, count: left });
        else next.delete(key);
        return next;
      });
    };
  }, [key]);
}

/** Backoff between reconnects: 1 s doubling to 30 s. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** A hidden tab keeps its stream this long, then closes it and catches up on return. */
const HIDDEN_KEEP_MS = 5 * 60_000;

/** The stream's address for what pages want now, or null when it cannot be opened. */
function streamUrl(wants: LiveWant[], ticket: string | null, lastId: string | null): string | null {
  // A signed-in reader's unread count comes on any stream: `home` when no page wants more.
  const list = streamSubjects([...new Set(wants.map((w) => w.subject)), ...(wants.length ? [] : ["home"])].join(","));
  if (!list.ok) return null;
  const params = new URLSearchParams({ subjects: list.value });
  const home = wants.find((w) => w.subject === "home");
  if (home?.tab) params.set("tab", home.tab);
  if (home?.langs?.length) params.set("langs", home.langs.join(","));
  if (ticket) params.set("ticket", ticket);
  if (lastId) params.set("last_event_id", lastId);
  return `/api/stream?${params.toString()}`;
}

/** The one stream of this tab, following what its pages want; mounted once, by the shell. */
export function LiveStream() {
  const wants = useAtomValue(wantsAtom);
  const token = useAtomValue(tokenAtom);
  const setUp = useSetAtom(liveUpAtom);
  const setUnread = useSetAtom(liveUnreadAtom);
  const lastId = useRef<string | null>(null);
  const key = JSON.stringify([...wants.values()].map((w) => w.want));
  useEffect(() => {
    const wanted = JSON.parse(key) as LiveWant[];
    let source: EventSource | null = null;
    let retry = RETRY_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hiddenTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const close = () => {
      source?.close();
      source = null;
      setUp(false);
    };
    const open = async () => {
      if (stopped || source) return;
      // `EventSource` cannot send X-TOKEN, and the token never goes in a URL: a ticket does.
      let ticket: string | null = null;
      if (token) {
        try {
          ticket = (await call<{ ticket: string }>("/stream/ticket", {}, { silent: true })).ticket;
        } catch {
          return later();
        }
      }
      const url = streamUrl(wanted, ticket, lastId.current);
      if (!url || stopped) return;
      const opened = new EventSource(url);
      source = opened;
      const on = (event: LiveEvent) =>
        opened.addEventListener(event, (e: MessageEvent<string>) => {
          if (e.lastEventId) lastId.current = e.lastEventId;
          let data: unknown;
          try {
            data = JSON.parse(e.data);
          } catch {
            return;
          }
          if (event === "unread") setUnread((data as { count: number }).count);
          for (const listener of listeners) listener(event, data);
        });
      (["item", "removed", "counts", "comment", "unread", "reset"] as const).forEach(on);
      opened.addEventListener("open", (e) => {
        const id = (e as MessageEvent<string>).lastEventId;
        if (id) lastId.current = id;
        retry = RETRY_FIRST_MS;
        setUp(true);
      });
      // The browser would reconnect by itself with a spent ticket: we do it, with a new one.
      opened.onerror = () => {
        close();
        later();
      };
    };
    const later = () => {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void open(), retry);
      retry = Math.min(retry * 2, RETRY_MAX_MS);
    };
    const visibility = () => {
      clearTimeout(hiddenTimer);
      if (document.hidden) hiddenTimer = setTimeout(close, HIDDEN_KEEP_MS);
      else void open();
    };
    document.addEventListener("visibilitychange", visibility);
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(hiddenTimer);
      document.removeEventListener("visibilitychange", visibility);
      close();
    };
  }, [key, token, setUp, setUnread]);
  return null;
}

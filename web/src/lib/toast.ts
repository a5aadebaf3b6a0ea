import { atom } from "jotai";

import { store } from "./store";

export type ToastKind = "success" | "error" | "info";
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export const toastsAtom = atom<Toast[]>([]);
let next = 1;

export function toast(kind: ToastKind, text: string, ms = 3000): void {
  const id = next++;
  store.set(toastsAtom, (list) => [...list.slice(-2), { id, kind, text }]);
  setTimeout(() => store.set(toastsAtom, (list) => list.filter((t) => t.id !== id)), ms);
}

import { atom } from "jotai";

export const loginOpenAtom = atom(false);
export const inviteOpenAtom = atom(false);
export const feedbackOpenAtom = atom(false);
export const downloadOpenAtom = atom(false);

/** The modal dialogs open now, the topmost last: toasts are drawn inside it (see `Toaster`). */
export const openDialogsAtom = atom<HTMLDialogElement[]>([]);

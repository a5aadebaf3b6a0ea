import { atom } from "jotai";

export const loginOpenAtom = atom(false);
export const inviteOpenAtom = atom(false);
export const feedbackOpenAtom = atom(false);
export const downloadOpenAtom = atom(false);

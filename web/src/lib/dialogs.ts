import { atom, useAtomValue, useSetAtom } from "jotai";
import { useEffect, useState } from "react";

import { type SessionUser, userAtom } from "./session";

export const loginOpenAtom = atom(false);
export const inviteOpenAtom = atom(false);
export const feedbackOpenAtom = atom(false);
export const downloadOpenAtom = atom(false);

/** The modal dialogs open now, the topmost last: toasts are drawn inside it (see `Toaster`). */
export const openDialogsAtom = atom<HTMLDialogElement[]>([]);

/**
 * The signed-in user, or null; pages that are a reader's own (the account, messages, favorites)
 * open the sign-in dialog while nobody is signed in.
 */
export function useSignedInPage(): SessionUser | null {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  useEffect(() => {
    if (!user) openLogin(true);
  }, [user, openLogin]);
  return user;
}

/**
 * A signed-in reader's action (like, save, reply): `run` does it, marking `busy` until it ends;
 * a visitor is asked to sign in instead.
 */
export function useMemberAction() {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const [busy, setBusy] = useState(false);
  const signedIn = () => {
    if (!user) openLogin(true);
    return user !== null;
  };
  const run = (action: () => Promise<unknown>) => {
    if (!signedIn()) return;
    setBusy(true);
    // Errors are toasted by the API client; the caller's state stays as it was.
    action().then(
      () => setBusy(false),
      () => setBusy(false),
    );
  };
  return { user, busy, run, signedIn };
}

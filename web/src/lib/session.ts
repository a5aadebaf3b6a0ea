// The signed-in user and the tokens, persisted in local storage (tokens travel in headers only).
import { atom } from "jotai";

import { defaultReadLangs } from "./core";
import { store } from "./store";

import type { SessionUser } from "./api-types";

export type { SessionUser };

const USER_KEY = "bb.user";
const TOKEN_KEY = "bb.token";
const GUEST_KEY = "bb.gtoken";

/** The stored user. One stored by an earlier version of the app lacks the fields added since:
 *  they take their defaults until the server's next answer replaces the whole user. */
function readUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    if (!raw) return null;
    const user = JSON.parse(raw) as Omit<SessionUser, "read_langs"> & Partial<Pick<SessionUser, "read_langs">>;
    return { ...user, read_langs: user.read_langs ?? defaultReadLangs(navigator.language) };
  } catch {
    return null;
  }
}

export const userAtom = atom<SessionUser | null>(readUser());
export const tokenAtom = atom<string | null>(localStorage.getItem(TOKEN_KEY));

/** Stores a signed-in session (the token separately from the user). */
export function signIn(user: SessionUser): void {
  const { token, ...rest } = user;
  if (token) {
    localStorage.setItem(TOKEN_KEY, token);
    store.set(tokenAtom, token);
  }
  localStorage.setItem(USER_KEY, JSON.stringify(rest));
  store.set(userAtom, rest);
}

/** Keeps the stored user in step with the server's answer. */
export function updateUser(user: SessionUser): void {
  const { token: _ignored, ...rest } = user;
  localStorage.setItem(USER_KEY, JSON.stringify(rest));
  store.set(userAtom, rest);
}

export function clearSession(): void {
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(TOKEN_KEY);
  store.set(userAtom, null);
  store.set(tokenAtom, null);
}

export function currentToken(): string | null {
  return store.get(tokenAtom);
}

export function storedGuestToken(): string | null {
  return localStorage.getItem(GUEST_KEY);
}

export function storeGuestToken(token: string): void {
  localStorage.setItem(GUEST_KEY, token);
}

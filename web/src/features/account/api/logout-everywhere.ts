import { call, logout } from "../../../lib/api";

/** Signs out every session of the user (other devices too), then this one locally. */
export async function logoutEverywhere(): Promise<number> {
  const { revoked } = await call<{ revoked: number }>("/user/logout/all");
  logout(false);
  return revoked;
}

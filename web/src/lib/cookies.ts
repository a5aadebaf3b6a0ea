/** The one cookie the app keeps is the reader's language (`C.localeCookie`), which the server
 * reads for the page head and the API; tokens travel in headers, never in cookies. */
export function setCookie(name: string, value: string | null): void {
  const base = `${name}=${value === null ? "" : encodeURIComponent(value)}; path=/; SameSite=Lax`;
  document.cookie = value === null ? `${base}; max-age=0` : `${base}; max-age=31536000`;
}

export function getCookie(name: string): string | null {
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
}

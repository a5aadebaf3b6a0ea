// The API's errors as the reader reads them: translated by their code, with the server's reason.
import { C, errorKey } from "./core";
import { i18next } from "./i18n";

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** The error in the reader's language; a precise reason from the server (which writes it in
 * English, in place of the catalogue's message) is added after the translated one. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const key = errorKey(error.code);
    if (!key) return error.message;
    const translated = i18next.t(key, { defaultValue: error.message });
    const wait = retryAfter(error.data);
    // A limit says when to try again, in the reader's words ("in 5 minutes", "5분 후").
    if (error.code === C.errorCodes.rateLimited && wait !== null) return `${translated} (${wait})`;
    const catalogue = i18next.t(key, { lng: "en", defaultValue: error.message });
    return error.message === catalogue ? translated : `${translated}: ${error.message}`;
  }
  return i18next.t("web.common.error");
}

/** `data.retry_after` seconds as "in 5 minutes" in the reader's language, if the error has it. */
function retryAfter(data: unknown): string | null {
  const seconds = (data as { retry_after?: unknown } | null)?.retry_after;
  if (typeof seconds !== "number" || seconds <= 0) return null;
  const format = new Intl.RelativeTimeFormat(i18next.language, { numeric: "always" });
  return seconds < 120 ? format.format(Math.ceil(seconds), "second") : format.format(Math.ceil(seconds / 60), "minute");
}

/** The server says there is no such thing (an unknown id, code or symbol): HTTP 404, which the
 * envelope rule reports by its status, or the catalogue's not-found code. */
export const isNotFound = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 404 || error.code === C.errorCodes.notFound);

import { loadScript } from "../../lib/script";
import type { SessionUser } from "../../lib/session";
import { loginWithTelegram } from "./api/telegram";

/** Telegram's Login Widget script (it opens Telegram's own sign-in window). */
const WIDGET_SCRIPT = "https://telegram.org/js/telegram-widget.js?22";

interface TelegramLogin {
  auth(options: { bot_id: string; request_access?: string; lang?: string }, done: (data: Record<string, unknown> | false) => void): void;
}
declare global {
  interface Window {
    Telegram?: { Login?: TelegramLogin };
  }
}

async function loadWidget(): Promise<TelegramLogin> {
  await loadScript(WIDGET_SCRIPT).catch(() => {
    throw new Error("web.telegram.unreachable");
  });
  if (!window.Telegram?.Login) throw new Error("cancelled");
  return window.Telegram.Login;
}

/** Signs in through Telegram's window; `botId` is the number before the token's colon. */
export async function signInWithTelegramWidget(botId: string, lang: string): Promise<SessionUser> {
  const widget = await loadWidget();
  const data = await new Promise<Record<string, unknown>>((resolve, reject) =>
    widget.auth({ bot_id: botId, request_access: "write", lang }, (d) => (d ? resolve(d) : reject(new Error("cancelled")))),
  );
  return loginWithTelegram(data);
}

/** Inside a Telegram Mini App the page is opened with `#tgWebAppData=<initData>`. */
export function miniAppInitData(hash = location.hash): string | null {
  return new URLSearchParams(hash.replace(/^#/, "")).get("tgWebAppData");
}

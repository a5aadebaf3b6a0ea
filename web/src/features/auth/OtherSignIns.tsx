import { useEffect } from "react";
import { useTranslation } from "../../lib/i18n";
import { ApiError, messageOf } from "../../lib/errors";
import { mobileOs } from "../../lib/device";
import type { SessionUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { signInWithApple } from "./apple";
import { OAuthCancelled, runOAuth } from "./oauth";
import { useOffers } from "./api/get-captcha-use";
import { signInWithWallet, toastWalletError } from "./wallet";
import { loginWithTelegram, miniAppInitData, signInWithTelegramWidget, useTelegramStart } from "../bots";

/** The sign-in methods besides email that this site offers (the server says which), each by its
 * device rule; in a Telegram Mini App, signs in at once. */
export function OtherSignIns({ onSignedIn: finish }: { onSignedIn: (user: SessionUser) => void }) {
  const { t, i18n } = useTranslation();
  const os = mobileOs();
  const offers = useOffers();
  const telegram = useTelegramStart(offers("telegram")).data;
  // Opened as a Telegram Mini App: Telegram already vouches for the reader.
  useEffect(() => {
    const initData = miniAppInitData();
    if (telegram && initData) void loginWithTelegram({ init_data: initData }).then(finish, () => {});
  }, [telegram, finish]);
  const providers = (os === "ios" ? (["line", "twitter"] as const) : (["google", "line", "twitter"] as const)).filter(offers);
  const wallet = os === null && offers("wallet");
  const others = Boolean(telegram) || wallet || providers.length > 0 || offers("apple");

  return (
    <>
      {others && <p className="divider">{t("web.login.or")}</p>}
      <div className="other-logins">
        {telegram && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              void signInWithTelegramWidget(telegram.bot_id, i18n.language).then(finish, (e: unknown) => {
                if (e instanceof Error && e.message !== "cancelled") toast("error", t(e.message, { defaultValue: messageOf(e) }));
              })
            }
          >
            {t("web.login.telegram")}
          </button>
        )}
        {wallet && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              void signInWithWallet().then(finish, toastWalletError)
            }
          >
            {t("web.login.metamask")}
          </button>
        )}
        {providers.map((provider) => (
          <button
            key={provider}
            type="button"
            className="button ghost"
            onClick={() =>
              // Errors from the server are toasted by the API client; a closed popup is a cancel.
              void runOAuth(provider).then(finish, () => {})
            }
          >
            {t(`web.login.${provider}`)}
          </button>
        ))}
        {offers("apple") && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              // Errors from the server are toasted by the API client; a closed popup is a cancel.
              void signInWithApple().then(finish, (e: unknown) => {
                if (!(e instanceof OAuthCancelled) && !(e instanceof ApiError)) toast("error", t("web.login.appleUnreachable"));
              })
            }
          >
            {t("web.login.apple")}
          </button>
        )}
      </div>
    </>
  );
}

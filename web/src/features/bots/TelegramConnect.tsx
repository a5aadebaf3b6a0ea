import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTranslation } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { accountKeys } from "../account";
import { botKeys } from "./api/keys";
import { makeTelegramLink, unlinkChat, useLinkedChats } from "./api/telegram";

/** The account page's Telegram section: a link that opens the bot and links the chat, the
 * chats already linked, and unlinking them. */
export function TelegramConnect() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // The link waiting to be used, and how many chats were linked when it was made.
  const [link, setLink] = useState<{ url: string; seconds: number; before: number } | null>(null);
  const [making, setMaking] = useState(false);
  const chats = useLinkedChats(link !== null);
  const linked = chats.data?.list ?? [];
  // A new chat while a link waits: the link was used (and the community task moved).
  const done = link !== null && linked.length > link.before;
  const waiting = link !== null && !done;
  useEffect(() => {
    if (!done) return;
    toast("success", t("web.telegram.linked"));
    void queryClient.invalidateQueries({ queryKey: accountKeys.tasks() });
  }, [done, queryClient, t]);
  // An unused link expires: the button comes back.
  useEffect(() => {
    if (!link) return;
    const timer = setTimeout(() => setLink(null), link.seconds * 1000);
    return () => clearTimeout(timer);
  }, [link]);

  const connect = () => {
    setMaking(true);
    makeTelegramLink().then(
      (made) => {
        setLink({ url: made.url, seconds: made.expires_in, before: linked.length });
        setMaking(false);
        window.open(made.url, "_blank", "noopener");
      },
      () => setMaking(false),
    );
  };
  const unlink = (id: number) => {
    // A used link is done with: unlinking must not bring its "waiting" back.
    setLink(null);
    void unlinkChat(id).then(() => queryClient.invalidateQueries({ queryKey: botKeys.chats() }), () => {});
  };

  return (
    <section aria-labelledby="telegram">
      {/* The community task lands here (`#telegram`). */}
      <h2 id="telegram" tabIndex={-1}>{t("web.telegram.title")}</h2>
      <p className="muted">{t("web.telegram.about")}</p>
      <ul className="ledger" data-testid="telegram-chats">
        {linked.map((chat) => (
          <li key={chat.id}>
            <span>{t(`web.telegram.kinds.${chat.kind}`, { defaultValue: chat.kind })}</span>
            <time>{new Date(chat.first_seen_at * 1000).toLocaleDateString(i18n.language)}</time>
            <button type="button" className="button small ghost" onClick={() => unlink(chat.id)}>
              {t("web.telegram.unlink")}
            </button>
          </li>
        ))}
      </ul>
      {waiting && link ? (
        <p role="status">
          {t("web.telegram.waiting")}{" "}
          <a href={link.url} target="_blank" rel="noopener noreferrer" data-testid="telegram-link">
            {t("web.telegram.open")}
          </a>
        </p>
      ) : (
        <button type="button" className="button" onClick={connect} disabled={making}>
          {t("web.telegram.connect")}
        </button>
      )}
    </section>
  );
}

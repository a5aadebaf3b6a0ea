import { useState } from "react";

import { messageOf } from "../../lib/errors";
import { checkQuestion } from "../../lib/core-more";
import { useSignedInPage } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { useNavigate } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { useBalance } from "../account";
import { TagPicker } from "../tags";
import { askQuestion } from "./api/questions";

const MAX_TAGS = 5;

/** `/ask`: title, text, tags, and an optional bounty from the balance, checked as typed by
 * client-core's rule (the server checks the same, and takes the bounty). */
export function AskPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.questions.ask"));
  const user = useSignedInPage();
  const to = useLocalePath();
  const navigate = useNavigate();
  const balance = useBalance().data?.balance ?? 0;
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [picked, setPicked] = useState<number[]>([]);
  const [bounty, setBounty] = useState("");
  const [error, setError] = useState<string | null>(null);
  const bountyValue = bounty.trim() === "" ? null : Number(bounty);
  const rule = checkQuestion(title, content, picked.length, bountyValue, balance);
  if (!user) return <p className="empty">{t("web.library.signIn")}</p>;
  return (
    <section className="page ask">
      <h1>{t("web.questions.ask")}</h1>
      <form
        className="card settings profile-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (rule) return;
          setError(null);
          askQuestion({ title, content, tags: picked, bounty: bountyValue }).then(
            (q) => void navigate(to(`/question/${q.id}`)),
            (e: unknown) => setError(messageOf(e)),
          );
        }}
      >
        <label className="field">
          <span>{t("web.questions.titleLabel")}</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("web.questions.details")}</span>
          <textarea rows={4} value={content} onChange={(e) => setContent(e.target.value)} />
        </label>
        <TagPicker legend={t("web.questions.tags")} picked={picked} max={MAX_TAGS} onChange={setPicked} />
        <label className="field">
          <span>{t("web.questions.bountyLabel", { balance: formatNumber(balance) })}</span>
          <input inputMode="numeric" value={bounty} onChange={(e) => setBounty(e.target.value.replace(/\D/g, ""))} />
        </label>
        {rule && (title || picked.length > 0 || bounty) && <p className="form-error">{t(rule.key, { defaultValue: rule.message })}</p>}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button" disabled={rule !== null && rule !== undefined}>
          {t("web.questions.post")}
        </button>
      </form>
    </section>
  );
}

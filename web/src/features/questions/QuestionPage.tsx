import { useState } from "react";

import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { checkAnswer } from "../../lib/core-more";
import { useMemberAction } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { toast } from "../../lib/toast";
import { CommentText, CommentThread, ReaderText } from "../comments";
import { LikeButton, ReportButton } from "../social";
import { TranslationNote } from "../translation";
import { acceptAnswer, answerQuestion, useMoreAnswers, useQuestion } from "./api/questions";

/** `/question/:id`: the question, its bounty and deadline, its answers (accepted first), the
 * answer box for others and the accept button for the asker. */
export function QuestionPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const { user, signedIn } = useMemberAction();
  const to = useLocalePath();
  const question = useQuestion(Number(id));
  const more = useMoreAnswers(Number(id), question.data?.answers_next_cursor ?? null);
  useDocumentTitle(question.data?.title);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [showOriginal, setShowOriginal] = useState(false);
  if (!/^\d+$/.test(id ?? "") || (question.isError && isNotFound(question.error))) return <NotFoundPage />;
  if (question.isPending) return <Spinner />;
  if (question.isError) return <p className="empty">{messageOf(question.error)}</p>;
  const q = question.data;
  // "Show original": the title and text as written came with the translation.
  const original = showOriginal ? q.original : undefined;
  // The first page came with the question; more come a page at a time when asked for.
  const fetched = more.data?.pages.flatMap((p) => p.list) ?? [];
  const answers = [...q.answers, ...fetched.filter((a) => !q.answers.some((b) => b.id === a.id))];
  const hasMore = more.data ? more.hasNextPage : q.answers_next_cursor !== null;
  const mine = user?.id === q.user?.id;
  const answered = answers.some((a) => a.user?.id === user?.id);
  const open = q.accepted_answer_id === null && (q.bounty_state === "open" || q.bounty_state === "none");
  const rule = checkAnswer(text);
  const send = () => {
    if (!signedIn() || rule) return;
    setError(null);
    answerQuestion(q.id, text).then(
      () => setText(""),
      (e: unknown) => setError(messageOf(e)),
    );
  };
  return (
    <article className="page question-page">
      <div className="card-meta">
        {q.user && <Link to={to(`/user/${q.user.id}`)}>{q.user.nickname}</Link>}
        {q.bounty > 0 && (
          <span className="badge bounty" data-testid="bounty">
            {t("web.questions.bounty", { n: formatNumber(q.bounty) })}
            {q.bounty_state === "open" && q.deadline_at !== null &&
              ` · ${t("web.questions.until", { date: new Date(q.deadline_at * 1000).toLocaleString(i18n.language) })}`}
          </span>
        )}
      </div>
      <h1 lang={original ? q.lang : undefined}>{original?.title ?? q.title}</h1>
      {q.original && (
        <TranslationNote lang={q.lang} hasOriginal showing={showOriginal} onToggle={() => setShowOriginal((on) => !on)} />
      )}
      {q.content && <CommentText content={original?.content ?? q.content} lang={original ? q.lang : undefined} />}
      <div className="feed-actions">
        <LikeButton kind="question" id={q.id} liked={false} count={q.like_count} author={q.user?.id} />
        {!mine && <ReportButton kind="question" id={q.id} />}
      </div>
      <h2>{t("web.questions.answers", { count: q.answer_count })}</h2>
      <div className="comment-list">
        {answers.map((a) => (
          <div key={a.id} className={`comment${a.accepted ? " accepted" : ""}`} data-testid="answer">
            <header className="comment-meta">
              <strong className="comment-author">{a.user?.nickname}</strong>
              {a.accepted && <span className="badge">✓ {t("web.questions.accepted")}</span>}
            </header>
            <ReaderText text={a} />
            <div className="comment-actions">
              <LikeButton kind="answer" id={a.id} liked={false} count={a.like_count} author={a.user?.id} small />
              {mine && open && (
                <button
                  type="button"
                  className="button small"
                  onClick={() => void acceptAnswer(a.id).then(() => toast("success", t("web.questions.acceptedToast")))}
                >
                  {t("web.questions.accept")}
                </button>
              )}
              {a.user?.id !== user?.id && <ReportButton kind="answer" id={a.id} />}
            </div>
            <AnswerComments answerId={a.id} />
          </div>
        ))}
      </div>
      {hasMore && (
        <button
          type="button"
          className="button ghost"
          disabled={more.isFetching}
          onClick={() => void (more.data ? more.fetchNextPage() : more.refetch())}
        >
          {more.isFetching ? <Spinner /> : t("web.questions.moreAnswers")}
        </button>
      )}
      {!mine && !answered && (
        <form
          className="comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          <textarea aria-label={t("web.questions.yourAnswer")} placeholder={t("web.questions.yourAnswer")} rows={4} value={text} onChange={(e) => setText(e.target.value)} />
          {text.length > 0 && rule && <p className="form-error">{t(rule.key, { defaultValue: rule.message })}</p>}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="comment-form-foot">
            <button type="submit" className="button small" disabled={rule !== null && rule !== undefined}>
              {t("web.questions.answer")}
            </button>
          </div>
        </form>
      )}
      <CommentThread subject={{ kind: "question", id: q.id }} />
    </article>
  );
}

/** An answer's own discussion, opened on request (most answers have none). */
function AnswerComments({ answerId }: { answerId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button small ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t("web.comments.heading")}
      </button>
      {open && <CommentThread subject={{ kind: "answer", id: answerId }} />}
    </>
  );
}

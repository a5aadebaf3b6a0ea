import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import type { QuestionView } from "../../lib/api-types";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useSearchParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { timeAgo } from "../../lib/time";
import { translatedFrom } from "../translation";
import { type QuestionSort, useQuestions } from "./api/questions";

const SORTS: QuestionSort[] = ["new", "hot", "unanswered", "bounty"];

export function QuestionCard({ q }: { q: QuestionView }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <article className="card question-card" data-testid="question">
      <div className="card-meta">
        {q.bounty_state === "open" && <span className="badge bounty">{t("web.questions.bounty", { n: formatNumber(q.bounty) })}</span>}
        <span>{q.user?.nickname}</span>
        <time>{timeAgo(q.created_at, t)}</time>
        {q.original && <span className="translated">{translatedFrom(q.lang, t)}</span>}
      </div>
      <h3 className="card-title">
        <Link to={to(`/question/${q.id}`)}>{q.title}</Link>
      </h3>
      <div className="card-stats">
        <span>{t("web.questions.answers", { count: q.answer_count })}</span>
        {q.accepted_answer_id !== null && <span>✓ {t("web.questions.solved")}</span>}
      </div>
    </article>
  );
}

/** `/questions`: newest, hot this week, unanswered, or biggest bounty first; the order is kept in
 * the address (`?sort=hot`), so Back and shared links return to the same list. */
export function QuestionsPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  useDocumentTitle(t("web.questions.title"));
  const [params, setParams] = useSearchParams();
  const asked = params.get("sort") as QuestionSort | null;
  const sort: QuestionSort = asked && SORTS.includes(asked) ? asked : "new";
  const setSort = (next: QuestionSort) => setParams(next === "new" ? {} : { sort: next });
  const questions = useQuestions(sort);
  const list = questions.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <section className="page questions">
      <div className="page-head">
        <h1>{t("web.questions.title")}</h1>
        <Link className="button small" to={to("/ask")}>{t("web.questions.ask")}</Link>
      </div>
      <TabBar label={t("web.questions.title")} items={SORTS.map((key) => ({ key, label: t(`web.questions.sorts.${key}`) }))} value={sort} onChange={setSort} />
      {questions.isPending ? (
        <Spinner />
      ) : questions.isError ? (
        <p className="empty">{messageOf(questions.error)}</p>
      ) : list.length === 0 ? (
        <p className="empty">{t("web.questions.empty")}</p>
      ) : (
        <div className="feed-list">
          {list.map((q) => (
            <QuestionCard key={q.id} q={q} />
          ))}
        </div>
      )}
      {questions.hasNextPage && (
        <button type="button" className="button ghost wide" onClick={() => void questions.fetchNextPage()}>
          {t("web.comments.more")}
        </button>
      )}
    </section>
  );
}

/** How many of them the Following tab shows. */
const FOLLOWED_SHOWN = 3;

/** Beside the Following tab: the newest questions of the people the reader follows (nothing when
 * there are none). */
export function FollowedQuestions() {
  const { t } = useTranslation();
  const questions = useQuestions("new", true, FOLLOWED_SHOWN);
  const list = questions.data?.pages[0]?.list ?? [];
  if (list.length === 0) return null;
  return (
    <section className="followed-questions" aria-label={t("web.questions.followed")}>
      <h2>{t("web.questions.followed")}</h2>
      {list.map((q) => (
        <QuestionCard key={q.id} q={q} />
      ))}
    </section>
  );
}

import { useAtomValue } from "jotai";
import { useState } from "react";

import { NotFoundPage } from "../../components/NotFoundPage";
import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import type { ProfileView } from "../../lib/api-types";
import { isNotFound, messageOf } from "../../lib/errors";
import { useMemberAction } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useParams } from "../../lib/router";
import { userAtom } from "../../lib/session";
import { useDocumentTitle } from "../../lib/title";
import { FeedList } from "../feed";
import { ReportButton } from "../social";
import { setFollowing, useFollowing, useProfile, useUserAnswers } from "./api/profile";

type Shelf = "posts" | "answers";

/** `/user/:id`: what anyone sees of a reader, their posts and answers, and Follow. */
export function ProfilePage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const profile = useProfile(Number(id));
  const [shelf, setShelf] = useState<Shelf>("posts");
  useDocumentTitle(profile.data?.nickname ?? t("web.profile.title"));
  if (!/^\d+$/.test(id ?? "") || (profile.isError && isNotFound(profile.error))) return <NotFoundPage />;
  if (profile.isPending) return <Spinner />;
  if (profile.isError) return <p className="empty">{messageOf(profile.error)}</p>;
  const p = profile.data;
  const stats: [string, number][] = [
    ["web.profile.points", p.points],
    ["web.profile.posts", p.posts],
    ["web.profile.answers", p.answers],
    ["web.profile.comments", p.comments],
    ["web.profile.likes", p.likes_received],
    ["web.profile.followers", p.followers],
    ["web.profile.following", p.following],
  ];
  return (
    <section className="page profile-page">
      <div className="card profile">
        <Avatar profile={p} />
        <div>
          <h1>{p.nickname}</h1>
          <p>{p.bio || t("web.profile.noBio")}</p>
          <p className="muted">{t("web.profile.joined", { date: new Date(p.joined * 1000).toLocaleDateString(i18n.language) })}</p>
          <OthersActions userId={p.id} />
        </div>
      </div>
      <dl className="card profile-stats">
        {stats.map(([key, n]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{formatNumber(n)}</dd>
          </div>
        ))}
      </dl>
      <TabBar
        label={t("web.profile.title")}
        items={(["posts", "answers"] as const).map((key) => ({ key, label: t(`web.profile.${key}`) }))}
        value={shelf}
        onChange={setShelf}
      />
      {shelf === "posts" ? <FeedList scope={{ user_id: p.id }} empty={t("web.profile.noPosts")} /> : <Answers userId={p.id} />}
    </section>
  );
}

export function Avatar({ profile }: { profile: Pick<ProfileView, "avatar" | "nickname"> }) {
  return (
    <span className="avatar large" aria-hidden="true">
      {profile.avatar ? <img src={profile.avatar} alt="" /> : profile.nickname.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** Follow and Report, on anyone's profile but one's own. */
function OthersActions({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const me = useAtomValue(userAtom);
  const following = useFollowing(userId, me !== null).data ?? false;
  const { busy, run } = useMemberAction();
  if (me?.id === userId) return null;
  return (
    <div className="profile-actions">
      <button
        type="button"
        className={following ? "button ghost" : "button"}
        aria-pressed={following}
        disabled={busy}
        onClick={() => run(() => setFollowing(userId, !following))}
      >
        {t(following ? "web.profile.unfollow" : "web.profile.follow")}
      </button>
      <ReportButton kind="profile" id={userId} />
    </div>
  );
}

function Answers({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const answers = useUserAnswers(userId);
  if (answers.isPending) return <Spinner />;
  if (answers.isError) return <p className="empty">{messageOf(answers.error)}</p>;
  const items = answers.data.pages.flatMap((page) => page.list);
  if (items.length === 0) return <p className="empty">{t("web.profile.noAnswers")}</p>;
  return (
    <ul className="card-list">
      {items.map((a) => (
        <li key={a.id} className="card">
          <Link to={to(`/question/${a.question_id}`)}>{t("web.profile.answered", { title: a.question_title })}</Link>
          {a.accepted && <span className="badge">{t("web.questions.accepted")}</span>}
          <p className="answer-text">{a.content}</p>
        </li>
      ))}
      {answers.hasNextPage && (
        <li>
          <button type="button" className="button ghost" disabled={answers.isFetchingNextPage} onClick={() => void answers.fetchNextPage()}>
            {t("web.comments.more")}
          </button>
        </li>
      )}
    </ul>
  );
}

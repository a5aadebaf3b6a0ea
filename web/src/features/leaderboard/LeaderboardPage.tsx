import { useState } from "react";

import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useDocumentTitle } from "../../lib/title";
import { type Period, useLeaderboard } from "./api/get-leaderboard";

const PERIODS: Period[] = ["daily", "all"];

/** `/leaderboard`: today's and all-time points, with the reader's own rank. */
export function LeaderboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.leaderboard.title"));
  const [period, setPeriod] = useState<Period>("daily");
  const board = useLeaderboard(period);
  return (
    <section className="page leaderboard">
      <h1>{t("web.leaderboard.title")}</h1>
      <TabBar
        label={t("web.leaderboard.title")}
        items={PERIODS.map((key) => ({ key, label: t(`web.leaderboard.${key}`) }))}
        value={period}
        onChange={setPeriod}
      />
      {board.isPending ? (
        <Spinner />
      ) : board.isError ? (
        <p className="empty">{messageOf(board.error)}</p>
      ) : (
        <>
          {board.data.me && (
            <p className="card my-rank" data-testid="my-rank">
              {board.data.me.rank === null
                ? t("web.leaderboard.unranked")
                : t("web.leaderboard.mine", { rank: board.data.me.rank, points: board.data.me.points })}
            </p>
          )}
          {board.data.list.length === 0 ? (
            <p className="empty">{t("web.leaderboard.empty")}</p>
          ) : (
            <ol className="ranking">
              {board.data.list.map((row) => (
                <li key={row.exposed_uid} className="card rank-row">
                  <span className="rank">{row.rank}</span>
                  <span className="avatar" aria-hidden="true">{row.nickname.slice(0, 1).toUpperCase()}</span>
                  <span className="name">{row.nickname}</span>
                  <strong className="points">{formatNumber(row.points)}</strong>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

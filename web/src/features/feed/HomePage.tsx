import { useAtomValue, useSetAtom } from "jotai";
import { lazy, Suspense } from "react";
import { useTranslation } from "../../lib/i18n";

import { loginOpenAtom } from "../../lib/dialogs";
import { TabBar } from "../../components/TabBar";
import { userAtom } from "../../lib/session";
import { C } from "../../lib/core";
import { useLocalePath } from "../../lib/paths";
import { Link } from "../../lib/router";
import { FeedControls } from "./FeedControls";
import { FeedList } from "./FeedList";
import { useFeedParams } from "./useFeedParams";


// Loaded with the questions area's own chunk, only when the Following tab opens.
const FollowedQuestions = lazy(() => import("../questions").then((m) => ({ default: m.FollowedQuestions })));

export function HomePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const { tab, filter, change } = useFeedParams();
  return (
    <section className="page home">
      <div className="home-head">
        <TabBar
          label={t("web.tabs.label")}
          items={C.feedTabs.map((key) => ({ key, label: t(`web.tabs.${key}`) }))}
          value={tab}
          onChange={(next) => {
            if (next === "following" && !user) openLogin(true);
            else change({ tab: next });
          }}
        />
        <FeedControls filter={filter} onChange={(next) => change({ filter: next })} />
      </div>
      {tab === "following" && (
        <Suspense fallback={null}>
          <FollowedQuestions />
        </Suspense>
      )}
      {tab === "community" && (
        <p className="community-head">
          <Link className="button small" to={to("/write")}>
            {t("web.post.write")}
          </Link>
        </p>
      )}
      <FeedList
        key={`${tab}-${filter.sort}-${filter.onlyImportant}`}
        scope={user ? { tab, langs: user.read_langs } : { tab }}
        filter={filter}
        live={{ subject: "home", tab, langs: user?.read_langs }}
        empty={{ following: t("web.feed.followingEmpty"), community: t("web.post.communityEmpty") }[tab as string]}
      />
    </section>
  );
}

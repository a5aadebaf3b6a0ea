import { useAtomValue, useSetAtom } from "jotai";
import { useTranslation } from "../../lib/i18n";
import { useSearchParams } from "../../lib/router";

import { loginOpenAtom } from "../../lib/dialogs";
import { Spinner } from "../../components/ui";
import { C } from "../../lib/core";
import { userAtom } from "../../lib/session";
import { useFollowTag } from "./api/follow-tag";
import { useFollowedTags } from "./api/get-followed-tags";
import { useTags } from "./api/get-tags";

export function RecommendTagPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const tags = useTags(q);
  const followed = useFollowedTags();
  const toggle = useFollowTag();
  const following = new Set(followed.data?.list.map((tag) => tag.id));
  return (
    <section className="page">
      <h1>{t("web.explore.tags")}</h1>
      <input
        type="search"
        aria-label={t("web.tag.search")}
        placeholder={t("web.tag.search")}
        value={q}
        maxLength={C.searchQueryMaxChars}
        onChange={(e) => setParams(e.target.value ? { q: e.target.value } : {})}
      />
      {tags.isPending ? (
        <Spinner />
      ) : (
        <ul className="tag-list">
          {tags.data?.list.map((tag) => {
            const on = following.has(tag.id);
            return (
              <li key={tag.id} className="card tag-row">
                <div>
                  <strong>#{tag.name}</strong>
                  <p>{tag.description}</p>
                </div>
                <button
                  type="button"
                  className={on ? "button small ghost" : "button small"}
                  aria-pressed={on}
                  onClick={() => (user ? toggle.mutate({ tagId: tag.id, follow: !on }) : openLogin(true))}
                >
                  {on ? t("web.tag.following") : t("web.tag.follow")}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

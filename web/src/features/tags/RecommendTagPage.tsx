import { useDeferredValue, useState } from "react";

import { Spinner } from "../../components/ui";
import { C } from "../../lib/core";
import { useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useSearchParams } from "../../lib/router";
import { useTags } from "./api/get-tags";
import { FollowTagButton } from "./FollowTagButton";

export function RecommendTagPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  // The box keeps its own text: navigations run in a transition, so a box fed from the address
  // would lag behind fast typing and drop letters.
  const [text, setText] = useState(() => params.get("q") ?? "");
  const q = useDeferredValue(text);
  const to = useLocalePath();
  const tags = useTags(q);
  return (
    <section className="page">
      <h1>{t("web.explore.tags")}</h1>
      <input
        type="search"
        aria-label={t("web.tag.search")}
        placeholder={t("web.tag.search")}
        value={text}
        maxLength={C.searchQueryMaxChars}
        onChange={(e) => {
          setText(e.target.value);
          // One history entry for the filter, not one per keystroke.
          setParams(e.target.value ? { q: e.target.value } : {}, { replace: true });
        }}
      />
      {tags.isPending ? (
        <Spinner />
      ) : (
        <ul className="tag-list">
          {tags.data?.list.map((tag) => (
            <li key={tag.id} className="card tag-row">
              <div>
                <Link to={to(`/tag/${encodeURIComponent(tag.code)}`)}>
                  <strong>#{tag.name}</strong>
                </Link>
                <p>{tag.description}</p>
              </div>
              <FollowTagButton tagId={tag.id} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue, useSetAtom } from "jotai";
import { useTranslation } from "../../lib/i18n";
import { useSearchParams } from "../../app/router";

import { loginOpenAtom } from "../../app/atoms";
import { Spinner } from "../../app/ui";
import { call } from "../../lib/api";
import type { TagView } from "../../lib/api-types";
import { C } from "../../lib/core";
import { userAtom } from "../../lib/session";
import { accountKeys } from "../account/api";

export function RecommendTagPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const queryClient = useQueryClient();
  const tags = useQuery({
    queryKey: ["tags", q, i18n.language],
    queryFn: () => call<{ list: TagView[] }>("/tag/list", { q, limit: 50 }),
  });
  const followed = useQuery({
    queryKey: ["followed-tags", user?.id],
    queryFn: () => call<{ list: TagView[] }>("/tag/follow/list"),
    enabled: !!user,
  });
  const toggle = useMutation({
    mutationFn: ({ tag, follow }: { tag: TagView; follow: boolean }) =>
      call(follow ? "/tag/follow/add" : "/tag/follow/del", { tag_id: tag.id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["followed-tags"] });
      void queryClient.invalidateQueries({ queryKey: accountKeys.tasks() });
    },
  });
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
                  onClick={() => (user ? toggle.mutate({ tag, follow: !on }) : openLogin(true))}
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

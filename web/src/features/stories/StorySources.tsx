import { useId, useState } from "react";
import type { TFunction } from "i18next";

import { useTranslation } from "../../lib/i18n";
import { Link } from "../../lib/router";
import { useLocalePath } from "../../lib/paths";
import type { StoryDetail, StoryRef } from "../../lib/api-types";
import { timeAgo } from "../../lib/time";
import { useStory } from "./api/stories";

const languageName = (lang: string, t: TFunction) => t(`web.languageNames.${lang}`, { defaultValue: lang });

/** "First reported in Korean, 12 min before other languages". */
function firstReported(story: StoryDetail, t: TFunction): string {
  const lang = languageName(story.first_lang, t);
  return story.ahead_minutes
    ? t("web.stories.ahead", { lang, count: story.ahead_minutes })
    : t("web.stories.firstIn", { lang });
}

/** "3 sources" on a story's card (the server's first paint writes the closed button too); open,
 * the other reports with their source, language and time, and who had it first. */
export function StorySources({ story, itemId }: { story: StoryRef; itemId: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [open, setOpen] = useState(false);
  const detail = useStory(open ? story.id : null);
  const listId = useId();
  return (
    <div className="story">
      <button
        type="button"
        className="story-toggle"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen(!open)}
      >
        {t("web.stories.sources", { count: story.size })}
      </button>
      {open && (
        <section id={listId} className="story-sources" aria-label={t("web.stories.label")} aria-busy={detail.isPending}>
          {detail.isPending ? (
            <p>{t("web.common.loading")}</p>
          ) : detail.isError ? (
            <p role="alert">{t("web.common.error")}</p>
          ) : (
            <>
              <p className="story-first">{firstReported(detail.data, t)}</p>
              <ul>
                {detail.data.items
                  .filter((item) => item.id !== itemId)
                  .map((item) => (
                    <li key={item.id}>
                      <Link to={to(`/feed/${item.id}`)} lang={item.shown_lang}>
                        {item.title}
                      </Link>
                      <span className="story-source">
                        {item.source_name} · {languageName(item.lang, t)} ·{" "}
                        <time dateTime={new Date(item.published_at * 1000).toISOString()}>
                          {timeAgo(item.published_at, t)}
                        </time>
                      </span>
                    </li>
                  ))}
              </ul>
            </>
          )}
        </section>
      )}
    </div>
  );
}

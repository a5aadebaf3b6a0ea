
import { confirm, Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import { useSignedInPage } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { useDocumentTitle } from "../../lib/title";
import { FeedCard } from "../feed";
import { clearHistory, forgetRead, type Shelf, useShelf } from "./api/library";

/** What a reader kept (`/favorites`) or read (`/history`), newest first. */
function ShelfPage({ shelf }: { shelf: Shelf }) {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t(`web.library.${shelf}`));
  const user = useSignedInPage();
  const items = useShelf(shelf);
  if (!user) return <p className="empty">{t("web.library.signIn")}</p>;
  if (items.isPending) return <Spinner />;
  if (items.isError) return <p className="empty">{messageOf(items.error)}</p>;
  const list = items.data.pages.flatMap((p) => p.list);
  return (
    <section className={`page shelf ${shelf}`}>
      <div className="page-head">
        <h1>{t(`web.library.${shelf}`)}</h1>
        {shelf === "history" && list.length > 0 && (
          <button
            type="button"
            className="button ghost small"
            onClick={() => void confirm(t("web.library.confirmClear")).then(clearHistory, () => {})}
          >
            {t("web.library.clear")}
          </button>
        )}
      </div>
      {list.length === 0 ? (
        <p className="empty">{t(`web.library.${shelf}Empty`)}</p>
      ) : (
        <div className="feed-list">
          {list.map(({ item, at }) => (
            <div key={item.id} className="shelf-row">
              <time className="shelf-at">{new Date(at * 1000).toLocaleString(i18n.language)}</time>
              <FeedCard item={item} />
              {shelf === "history" && (
                <button type="button" className="link-button" onClick={() => void forgetRead(item.id)}>
                  {t("web.library.forget")}
                </button>
              )}
            </div>
          ))}
        </div>
      )}
      {items.hasNextPage && (
        <button type="button" className="button ghost wide" onClick={() => void items.fetchNextPage()}>
          {t("web.comments.more")}
        </button>
      )}
    </section>
  );
}

export const FavoritesPage = () => <ShelfPage shelf="favorites" />;
export const HistoryPage = () => <ShelfPage shelf="history" />;

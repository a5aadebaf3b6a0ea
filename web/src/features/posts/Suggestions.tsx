import { useTranslation } from "../../lib/i18n";
import { useLinks } from "../../lib/linking";

/** The post's tokens, and what the writer's text names by client-core's linker (the rule the
 * server links every item with) offered as chips: nothing is added until the writer presses one,
 * and what they chose stays. */
export function Suggestions({
  title,
  content,
  tags,
  tokens,
  maxTags,
  onTags,
  onTokens,
}: {
  title: string;
  content: string;
  tags: number[];
  tokens: number[];
  maxTags: number;
  onTags: (ids: number[]) => void;
  onTokens: (ids: number[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const linked = useLinks(i18n.language, title, content);
  if (!linked) return null;
  const { links: found, catalogue } = linked;
  const newTokens = found.tokens.filter((id) => !tokens.includes(id));
  const newTags = tags.length < maxTags ? found.tags.filter((id) => !tags.includes(id)) : [];
  const symbol = (id: number) => catalogue.tokens.find((k) => k.id === id)?.symbol ?? String(id);
  const code = (id: number) => catalogue.tags.find((k) => k.id === id)?.code ?? String(id);
  return (
    <>
      {tokens.length > 0 && (
        <fieldset className="field">
          <legend>{t("web.post.tokens")}</legend>
          <div className="chips">
            {tokens.map((id) => (
              <button key={id} type="button" className="chip" aria-pressed onClick={() => onTokens(tokens.filter((k) => k !== id))}>
                ${symbol(id)}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {(newTokens.length > 0 || newTags.length > 0) && (
        <div className="field" aria-live="polite">
          <span className="muted">{t("web.post.suggested")}</span>
          <div className="chips">
            {newTokens.map((id) => (
              <button key={`token-${id}`} type="button" className="chip" onClick={() => onTokens([...tokens, id])}>
                + ${symbol(id)}
              </button>
            ))}
            {newTags.map((id) => (
              <button key={`tag-${id}`} type="button" className="chip" onClick={() => onTags([...tags, id])}>
                + #{code(id)}
              </button>
            ))}
          </div>
        </div>
      )}
    </>
  );
}

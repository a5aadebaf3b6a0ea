import { useId, useLayoutEffect, useRef, useState } from "react";

import { messageOf } from "../../lib/errors";
import { checkComment, mentionQuery } from "../../lib/core-more";
import { useTranslation } from "../../lib/i18n";

const SUGGESTIONS = 5;

/**
 * A comment's text box: the counter and refusal from client-core's rule (the server applies the
 * same), `@` suggestions from the people in the thread, and the server's refusal (a limit says
 * when to try again) under the box.
 */
export function CommentForm(props: {
  label: string;
  people: string[];
  initial?: string;
  submitLabel: string;
  send: (content: string) => Promise<unknown>;
  onDone?: () => void;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(props.initial ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once a picked name is in the box (before the next key is typed).
  const caretAfter = useRef<number | null>(null);
  useLayoutEffect(() => {
    const place = caretAfter.current;
    if (place === null) return;
    caretAfter.current = null;
    box.current?.focus();
    box.current?.setSelectionRange(place, place);
  }, [text]);
  const listId = useId();
  const check = checkComment(text);
  const suggestions =
    query === null
      ? []
      : props.people.filter((name) => name.toLowerCase().startsWith(query.toLowerCase())).slice(0, SUGGESTIONS);

  const readQuery = (value: string, caret: number) => {
    setQuery(mentionQuery(value.slice(0, caret)));
    setActive(0);
  };
  const pick = (name: string) => {
    const node = box.current;
    const caret = node?.selectionStart ?? text.length;
    const before = text.slice(0, caret);
    const at = before.lastIndexOf("@");
    caretAfter.current = at + name.length + 2;
    setText(`${before.slice(0, at)}@${name} ${text.slice(caret)}`);
    setQuery(null);
  };
  const submit = () => {
    if (!check.ok || busy) return;
    setBusy(true);
    setError(null);
    props.send(text).then(
      () => {
        setBusy(false);
        setText("");
        props.onDone?.();
      },
      (e: unknown) => {
        setBusy(false);
        setError(messageOf(e));
      },
    );
  };
  return (
    <form
      className="comment-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="mention-anchor">
        <textarea
          ref={box}
          aria-label={props.label}
          placeholder={props.label}
          value={text}
          rows={3}
          autoFocus={props.autoFocus}
          role="combobox"
          aria-expanded={suggestions.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={suggestions.length > 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            readQuery(e.target.value, e.target.selectionStart);
          }}
          onKeyDown={(e) => {
            if (suggestions.length > 0) {
              if (e.key === "ArrowDown" || e.key === "ArrowUp") {
                e.preventDefault();
                const step = e.key === "ArrowDown" ? 1 : suggestions.length - 1;
                setActive((active + step) % suggestions.length);
                return;
              }
              if (e.key === "Enter" || e.key === "Tab") {
                e.preventDefault();
                pick(suggestions[active] ?? suggestions[0]!);
                return;
              }
              if (e.key === "Escape") {
                e.preventDefault();
                setQuery(null);
                return;
              }
            }
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {suggestions.length > 0 && (
          <ul className="mention-list" role="listbox" id={listId} aria-label={t("web.comments.mention")}>
            {suggestions.map((name, i) => (
              <li
                key={name}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(name);
                }}
              >
                @{name}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="comment-form-foot">
        <span className={`counter${check.count > check.max ? " over" : ""}`} aria-live="polite">
          {check.count}/{check.max}
        </span>
        {check.count > check.max && check.error && (
          <span className="form-error">{t(check.error.key, { defaultValue: check.error.message })}</span>
        )}
        {props.onCancel && (
          <button type="button" className="button ghost small" onClick={props.onCancel}>
            {t("web.common.cancel")}
          </button>
        )}
        <button type="submit" className="button small" disabled={!check.ok || busy}>
          {props.submitLabel}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n";

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/** A tab list that keeps its own selection unless `value` controls it, scrolls the selected tab
 * into view, and scrolls 200 px per arrow press. */
export function TabBar<K extends string>(props: {
  items: TabItem<K>[];
  value?: K;
  defaultValue?: K;
  onChange?: (key: K) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const [own, setOwn] = useState<K>(props.defaultValue ?? props.items[0].key);
  const selected = props.value ?? own;
  const strip = useRef<HTMLDivElement>(null);
  useEffect(() => {
    strip.current
      ?.querySelector<HTMLElement>('[aria-selected="true"]')
      ?.scrollIntoView?.({ block: "nearest", inline: "center", behavior: "smooth" });
  }, [selected]);
  const scroll = (by: number) => strip.current?.scrollBy({ left: by, behavior: "smooth" });
  return (
    <div className="tabbar">
      <button type="button" className="tab-arrow" aria-label={t("web.tabs.scrollLeft")} onClick={() => scroll(-200)}>
        ‹
      </button>
      <div className="tab-strip" role="tablist" aria-label={props.label} ref={strip}>
        {props.items.map((item) => (
          <button
            key={item.key}
            type="button"
            role="tab"
            aria-selected={item.key === selected}
            className="tab"
            onClick={() => {
              if (props.value === undefined) setOwn(item.key);
              props.onChange?.(item.key);
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
      <button type="button" className="tab-arrow" aria-label={t("web.tabs.scrollRight")} onClick={() => scroll(200)}>
        ›
      </button>
    </div>
  );
}

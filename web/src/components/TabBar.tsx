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
    const node = strip.current;
    const tab = node?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!node || !tab) return;
    // The chosen tab to the strip's centre. Not `scrollIntoView`: it scrolls the page as well,
    // and pulled a reader coming Back to a list up to its tabs, away from where they were.
    const [box, at] = [node.getBoundingClientRect(), tab.getBoundingClientRect()];
    const left = node.scrollLeft + at.left - box.left - (box.width - at.width) / 2;
    node.scrollTo?.({ left, behavior: "smooth" });
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

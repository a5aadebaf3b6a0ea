import { useState } from "react";

import type { OriginalText } from "../../lib/api-types";
import { TranslationNote } from "../translation";
import { CommentText } from "./CommentText";

/** A reader's comment or answer as it shows: in the reader's language when the server sent a
 * translation, with "Show original" swapping in the text as written (it came along: no request). */
export function ReaderText({ text }: { text: { content: string; lang: string; original?: OriginalText } }) {
  const [showing, setShowing] = useState(false);
  const { original } = text;
  if (!original) return <CommentText content={text.content} />;
  return (
    <>
      <CommentText content={showing ? original.content : text.content} lang={showing ? text.lang : undefined} />
      <TranslationNote lang={text.lang} hasOriginal showing={showing} onToggle={() => setShowing((on) => !on)} />
    </>
  );
}

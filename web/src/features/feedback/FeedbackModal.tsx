import { useSetAtom } from "jotai";
import { useState } from "react";
import { say, useTranslation } from "../../lib/i18n";

import { feedbackOpenAtom } from "../../lib/dialogs";
import { AddImage } from "../../components/AddImage";
import { Dialog } from "../../components/ui";
import { uploadImage } from "../../lib/api";
import { messageOf } from "../../lib/errors";
import { C, type FeedbackType } from "../../lib/core";
import { checkImage, contentCounter, validateFeedback } from "../../lib/core-more";
import { toast } from "../../lib/toast";
import { track } from "../../lib/track";
import { createFeedback } from "./api/create-feedback";

interface Picked {
  id: number;
  preview: string;
  state: "loading" | "success" | "error";
  url?: string;
}

let nextId = 1;

/** Feedback for visitors and users; the form rules are client-core's, as on the server. The form
 * lives in this component, so closing the dialog (which unmounts it) resets it. */
export default function FeedbackModal() {
  const { t } = useTranslation();
  const setOpen = useSetAtom(feedbackOpenAtom);
  const [type, setType] = useState<FeedbackType>("suggestion");
  const [content, setContent] = useState("");
  const [contact, setContact] = useState("");
  const [images, setImages] = useState<Picked[]>([]);
  const [sending, setSending] = useState(false);
  // Send stays available; a form that breaks a rule says which when sent.
  const [tried, setTried] = useState(false);
  const counter = contentCounter(content);
  const uploaded = images.filter((i) => i.state === "success").map((i) => i.url ?? "");
  const form = { type, content, contact: contact || null, images: uploaded };
  const check = validateFeedback(form);
  const busy = images.some((i) => i.state === "loading");
  const close = () => setOpen(false);

  const pick = (files: File[]) => {
    // Counted here: the state does not change until this render is over, so four files chosen at
    // once would each see the same count. The first three are kept; each refusal is said once.
    let live = images.filter((i) => i.state !== "error").length;
    const said = new Set<string>();
    for (const file of files) {
      const refused = checkImage({ name: file.name, size: file.size, type: file.type }, live);
      if (refused) {
        if (!said.has(refused.key)) toast("error", say(refused));
        said.add(refused.key);
        continue;
      }
      live++;
      const item: Picked = { id: nextId++, preview: URL.createObjectURL(file), state: "loading" };
      setImages((list) => [...list, item]);
      uploadImage(file, "/img/upload/feedback/v2").then(
        (url) => setImages((list) => list.map((i) => (i.id === item.id ? { ...i, state: "success", url } : i))),
        (e: unknown) => {
          toast("error", messageOf(e));
          // A failed image is removed.
          setImages((list) => list.filter((i) => i.id !== item.id));
        },
      );
    }
  };

  const submit = async () => {
    setSending(true);
    try {
      await createFeedback(form);
      toast("success", t("web.feedback.thanks"));
      // The server completes the create_feedback task itself; the event goes to tracking.
      track("click", "create_feedback", { type });
      close();
    } catch {
      // Toasted by the API client; the form keeps what was typed.
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open title={t("web.feedback.title")} onClose={close}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (check.ok && !busy) void submit();
        }}
      >
        <label>
          <span>{t("web.feedback.type")}</span>
          <select value={type} onChange={(e) => setType(e.target.value as FeedbackType)}>
            {C.feedbackTypes.map((k) => (
              <option key={k} value={k}>{t(`web.feedback.types.${k}`)}</option>
            ))}
          </select>
        </label>
        <label>
          <span>{t("web.feedback.content")}</span>
          <textarea rows={5} value={content} onChange={(e) => setContent(e.target.value)} />
        </label>
        <p className={counter.atLimit ? "counter over" : "counter"} aria-live="polite">
          {counter.count}/{counter.max}
        </p>
        <label>
          <span>{t("web.feedback.contact")}</span>
          <input value={contact} onChange={(e) => setContact(e.target.value)} autoComplete="email" />
        </label>
        <fieldset className="images">
          <legend>{t("web.feedback.images")}</legend>
          {images
            .filter((i) => i.state !== "error")
            .map((i) => (
              <div key={i.id} className={`thumb ${i.state}`} data-state={i.state}>
                <img src={i.preview} alt="" />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t("web.feedback.removeImage")}
                  onClick={() => setImages((list) => list.filter((x) => x.id !== i.id))}
                >
                  ×
                </button>
              </div>
            ))}
          {images.length < C.feedbackMaxImages && (
            <AddImage label={t("web.feedback.addImage")} multiple onFiles={pick} />
          )}
        </fieldset>
        {tried && !check.ok && (
          <p className="form-error" role="alert">{check.errors.map((e) => say(e)).join(" ")}</p>
        )}
        {/* Busy only while images upload or the form is sent, which the images and the label show. */}
        <button type="submit" className="button wide" disabled={busy || sending} aria-busy={busy || sending}>
          {busy || sending ? t("web.common.loading") : t("web.feedback.submit")}
        </button>
      </form>
    </Dialog>
  );
}

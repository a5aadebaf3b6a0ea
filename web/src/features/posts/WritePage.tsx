import { lazy, Suspense, useState } from "react";

import { AddImage } from "../../components/AddImage";
import { Spinner } from "../../components/ui";
import { uploadImage } from "../../lib/api";
import { messageOf } from "../../lib/errors";
import { C } from "../../lib/core";
import { checkImage, checkPost } from "../../lib/core-more";
import { useSignedInPage } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { useNavigate, useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { toast } from "../../lib/toast";
import { TagPicker } from "../tags";
import { type PostDraft, createPost, editPost, previewPost, usePostHistory } from "./api/posts";

// The linker's own wasm module comes with the suggestions, not with the posts chunk the item page
// also loads (for PostTools).
const Suggestions = lazy(() => import("./Suggestions").then((m) => ({ default: m.Suggestions })));

// client-core's limits, as the server applies them.
const { postMaxImages: MAX_IMAGES, postMaxTags: MAX_TAGS, postContentMaxChars: MAX_CHARS, postTitleMaxChars: MAX_TITLE } = C;

/** `/write` (a new post) and `/write/:id` (editing one's post, from its newest version). */
export function WritePage() {
  const { id } = useParams();
  const editing = id && /^\d+$/.test(id) ? Number(id) : null;
  const { t } = useTranslation();
  useDocumentTitle(t(editing ? "web.post.edit" : "web.post.write"));
  const user = useSignedInPage();
  const history = usePostHistory(editing);
  if (!user) return <p className="empty">{t("web.library.signIn")}</p>;
  if (editing === null) return <Editor id={null} start={{ title: "", content: "", tags: [], tokens: [], images: [] }} />;
  if (history.isPending) return <Spinner />;
  if (history.isError) return <p className="empty">{messageOf(history.error)}</p>;
  const newest = history.data.list[0];
  const start: PostDraft = {
    title: newest?.title ?? "",
    content: newest?.markdown ?? "",
    tags: history.data.tag_ids,
    tokens: history.data.token_ids,
    images: newest?.images ?? [],
  };
  return <Editor id={editing} start={start} />;
}

function Editor({ id, start }: { id: number | null; start: PostDraft }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [title, setTitle] = useState(start.title);
  const [content, setContent] = useState(start.content);
  const [picked, setPicked] = useState(start.tags);
  const [tokens, setTokens] = useState(start.tokens);
  const [images, setImages] = useState(start.images);
  const [uploading, setUploading] = useState(0);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rule = checkPost(title, content, picked.length, tokens.length, images.length);
  const say = (m: { key: string; message: string }) => t(m.key, { defaultValue: m.message });
  const add = (files: File[]) => {
    for (const file of files.slice(0, MAX_IMAGES - images.length - uploading)) {
      const refused = checkImage({ name: file.name, size: file.size, type: file.type }, 0);
      if (refused) {
        toast("error", say(refused));
        continue;
      }
      setUploading((n) => n + 1);
      uploadImage(file).then(
        (url) => {
          setUploading((n) => n - 1);
          setImages((list) => [...list, url]);
        },
        (e: unknown) => {
          setUploading((n) => n - 1);
          toast("error", messageOf(e));
        },
      );
    }
  };
  const showPreview = () => {
    previewPost(content).then(
      (p) => setPreview(p.html),
      (e: unknown) => setError(messageOf(e)),
    );
  };
  const submit = () => {
    if (rule || uploading > 0) return;
    setBusy(true);
    setError(null);
    const draft: PostDraft = { title, content, tags: picked, tokens, images };
    (id === null ? createPost(draft) : editPost(id, draft)).then(
      (made) => {
        toast("success", t(id === null ? "web.post.published" : "web.post.saved"));
        void navigate(to(`/feed/${made.id}`));
      },
      (e: unknown) => {
        setBusy(false);
        setError(messageOf(e));
      },
    );
  };
  return (
    <section className="page write">
      <h1>{t(id === null ? "web.post.write" : "web.post.edit")}</h1>
      <form
        className="card settings profile-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="field">
          <span>{t("web.post.titleLabel")}</span>
          <input value={title} maxLength={MAX_TITLE} onChange={(e) => setTitle(e.target.value)} />
        </label>
        {/* The editor or the server's rendering of it: one segmented toggle, as every view switch. */}
        <div className="segmented" role="group" aria-label={t("web.post.view")}>
          <button type="button" aria-pressed={preview === null} onClick={() => setPreview(null)}>
            {t("web.post.content")}
          </button>
          <button type="button" aria-pressed={preview !== null} onClick={showPreview}>
            {t("web.post.preview")}
          </button>
        </div>
        {preview === null ? (
          <label className="field">
            <textarea
              rows={10}
              value={content}
              aria-label={t("web.post.content")}
              onChange={(e) => setContent(e.target.value)}
              aria-describedby="post-hint"
            />
            <small id="post-hint" className="muted">
              {t("web.post.hint")} · {t("web.post.count", { n: formatNumber([...content.trim()].length), max: formatNumber(MAX_CHARS) })}
            </small>
          </label>
        ) : (
          <div className="article-body post-preview" aria-live="polite">
            {preview === "" ? (
              <p className="muted">{t("web.post.previewEmpty")}</p>
            ) : (
              // Rendered and cleaned by the server (pulldown-cmark, then ammonia), as it will be shown.
              <div dangerouslySetInnerHTML={{ __html: preview }} />
            )}
          </div>
        )}
        <fieldset className="field">
          <legend>{t("web.post.images")}</legend>
          <div className="post-images">
            {images.map((url, n) => (
              <figure key={url}>
                <img src={url} alt="" />
                <button type="button" className="button ghost" onClick={() => setImages(images.filter((i) => i !== url))}>
                  {t("web.post.removeImage", { n: n + 1 })}
                </button>
              </figure>
            ))}
            {uploading > 0 && <p className="muted">{t("web.post.uploading")}</p>}
          </div>
          {images.length + uploading < MAX_IMAGES && (
            <AddImage label={t("web.post.addImage")} multiple onFiles={add} />
          )}
        </fieldset>
        <TagPicker legend={t("web.post.tags")} picked={picked} max={MAX_TAGS} onChange={setPicked} />
        <Suspense fallback={null}>
          <Suggestions
            title={title}
            content={content}
            tags={picked}
            tokens={tokens}
            maxTags={MAX_TAGS}
            onTags={setPicked}
            onTokens={setTokens}
          />
        </Suspense>
        {rule && (title || content || picked.length > 0) && <p className="form-error">{say(rule)}</p>}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button" disabled={busy || uploading > 0 || (rule !== null && rule !== undefined)}>
          {t(id === null ? "web.post.publish" : "web.post.save")}
        </button>
      </form>
    </section>
  );
}

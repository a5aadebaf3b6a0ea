import { useAtomValue } from "jotai";
import { useState } from "react";

import { AddImage } from "../../components/AddImage";
import { uploadImage } from "../../lib/api";
import { messageOf } from "../../lib/errors";
import { checkBio, checkImage, checkNickname } from "../../lib/core-more";
import { useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link } from "../../lib/router";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { updateProfile, useProfile } from "./api/profile";
import { Avatar } from "./ProfilePage";

/** The reader's nickname and bio, checked as they type by client-core's rules. */
export function ProfileEditor() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useAtomValue(userAtom);
  const profile = useProfile(user?.id ?? 0);
  if (!user || !profile.data) return null;
  return (
    <>
      <h2>{t("web.profile.edit")}</h2>
      <AvatarForm nickname={profile.data.nickname} avatar={profile.data.avatar} />
      {/* Keyed by what the server last said, so a saved change is the form's new start. */}
      <Form key={`${profile.data.nickname}|${profile.data.bio}`} nickname={profile.data.nickname} bio={profile.data.bio} />
      <p className="profile-actions">
        <Link to={to(`/user/${user.id}`)}>{t("web.profile.view")}</Link>
        <Link className="button small" to={to("/write")}>
          {t("web.post.write")}
        </Link>
      </p>
    </>
  );
}

function Form(props: { nickname: string; bio: string }) {
  const { t } = useTranslation();
  const [nickname, setNickname] = useState(props.nickname);
  const [bio, setBio] = useState(props.bio);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nicknameError = checkNickname(nickname);
  const bioError = checkBio(bio);
  const said = (m: { key: string; message: string } | null | undefined) => m && t(m.key, { defaultValue: m.message });
  const changed = nickname.trim() !== props.nickname || bio.trim() !== props.bio;
  return (
    <form
      className="card settings profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (nicknameError || bioError || !changed) return;
        setBusy(true);
        setError(null);
        updateProfile({ nickname: nickname.trim(), bio: bio.trim() }).then(
          () => {
            setBusy(false);
            toast("success", t("web.profile.saved"));
          },
          (e: unknown) => {
            setBusy(false);
            setError(messageOf(e));
          },
        );
      }}
    >
      <label className="field">
        <span>{t("web.profile.nickname")}</span>
        <input value={nickname} maxLength={64} onChange={(e) => setNickname(e.target.value)} aria-invalid={nicknameError !== null} />
      </label>
      {nicknameError && <p className="form-error">{said(nicknameError)}</p>}
      <label className="field">
        <span>{t("web.profile.bio")}</span>
        <textarea value={bio} rows={2} onChange={(e) => setBio(e.target.value)} aria-invalid={bioError !== null} />
      </label>
      {bioError && <p className="form-error">{said(bioError)}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={busy || !changed || nicknameError !== null || bioError !== null}>
        {t("web.profile.save")}
      </button>
    </form>
  );
}

/** The reader's avatar: an image uploaded through the server's pipeline, or none. */
function AvatarForm(props: { nickname: string; avatar: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const change = (avatar: Promise<string>) => {
    setBusy(true);
    avatar
      .then((url) => updateProfile({ avatar: url }))
      .then(
        () => toast("success", t("web.profile.saved")),
        (e: unknown) => toast("error", messageOf(e)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <div className="card settings profile-actions">
      <Avatar profile={props} />
      <AddImage
        label={busy ? t("web.post.uploading") : t("web.profile.changeAvatar")}
        disabled={busy}
        onFiles={([file]) => {
          if (!file) return;
          const refused = checkImage({ name: file.name, size: file.size, type: file.type }, 0);
          if (refused) toast("error", t(refused.key, { defaultValue: refused.message }));
          else change(uploadImage(file));
        }}
      />
      {props.avatar && (
        <button type="button" className="button ghost" disabled={busy} onClick={() => change(Promise.resolve(""))}>
          {t("web.profile.removeAvatar")}
        </button>
      )}
    </div>
  );
}

import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { mobileOs } from "../../lib/device";

const APP_STORE = "https://apps.apple.com/app/blockbrief/id0000000000";
const GOOGLE_PLAY = "https://play.google.com/store/apps/details?id=news.blockbrief";

export function DownloadPage() {
  const { t } = useTranslation();
  const [qr, setQr] = useState("");
  const os = mobileOs();
  useEffect(() => {
    // On a phone the download goes straight to its store.
    if (os === "ios") location.assign(APP_STORE);
    else if (os === "android") location.assign(GOOGLE_PLAY);
    else void QRCode.toDataURL(`${location.origin}/download`, { errorCorrectionLevel: "L", margin: 1, width: 160 }).then(setQr);
  }, [os]);
  return (
    <section className="page download">
      <div className="card promo">
        <h1>{t("web.download.title")}</h1>
        <p>{t("web.download.body")}</p>
        {qr && <img src={qr} width={160} height={160} alt={t("web.download.scan")} />}
        <div className="feed-actions">
          <a className="button" href={APP_STORE}>{t("web.download.appStore")}</a>
          <a className="button ghost" href={GOOGLE_PLAY}>{t("web.download.googlePlay")}</a>
        </div>
      </div>
    </section>
  );
}

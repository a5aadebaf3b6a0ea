import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n";

import { appPublished, appStoreUrl, playStoreUrl } from "../../lib/device";

/** The app promo: a QR code (low error correction: fewer modules, scans from a screen) and a
 * button for each store the app is in; until it is in one, the web app is the app. */
export function DownloadCard() {
  const { t } = useTranslation();
  const [qr, setQr] = useState("");
  const published = appPublished();
  useEffect(() => {
    if (!published) return;
    void QRCode.toDataURL(`${location.origin}/download`, { errorCorrectionLevel: "L", margin: 1, width: 160 }).then(setQr);
  }, [published]);
  return (
    <div className="card promo">
      <h2>{t("web.download.title")}</h2>
      <p>{t(published ? "web.download.body" : "web.download.notYet")}</p>
      {qr && <img src={qr} width={160} height={160} alt={t("web.download.scan")} />}
      {published && (
        <div className="feed-actions">
          {appStoreUrl() && <a className="button" href={appStoreUrl()}>{t("web.download.appStore")}</a>}
          {playStoreUrl() && <a className="button ghost" href={playStoreUrl()}>{t("web.download.googlePlay")}</a>}
        </div>
      )}
    </div>
  );

}

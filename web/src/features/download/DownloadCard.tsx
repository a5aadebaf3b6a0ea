import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n";

import { appStoreUrl, playStoreUrl } from "../../lib/device";

/** The app promo: a QR code (low error correction: fewer modules, scans from a screen) and the
 * two store buttons. */
export function DownloadCard() {
  const { t } = useTranslation();
  const [qr, setQr] = useState("");
  useEffect(() => {
    void QRCode.toDataURL(`${location.origin}/download`, { errorCorrectionLevel: "L", margin: 1, width: 160 }).then(setQr);
  }, []);
  return (
    <div className="card promo">
      <h2>{t("web.download.title")}</h2>
      <p>{t("web.download.body")}</p>
      {qr && <img src={qr} width={160} height={160} alt={t("web.download.scan")} />}
      <div className="feed-actions">
        <a className="button" href={appStoreUrl()}>{t("web.download.appStore")}</a>
        <a className="button ghost" href={playStoreUrl()}>{t("web.download.googlePlay")}</a>
      </div>
    </div>
  );
}

import { useSetAtom } from "jotai";
import { useTranslation } from "../../lib/i18n";

import { downloadOpenAtom } from "../../lib/dialogs";
import { Dialog } from "../../components/ui";
import { DownloadCard } from "./DownloadCard";

export default function DownloadModal() {
  const { t } = useTranslation();
  const setOpen = useSetAtom(downloadOpenAtom);
  return (
    <Dialog open title={t("web.footer.download")} onClose={() => setOpen(false)}>
      <DownloadCard />
    </Dialog>
  );
}

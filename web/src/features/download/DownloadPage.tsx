import { useEffect } from "react";

import { storeLink } from "../../lib/device";
import { DownloadCard } from "./DownloadCard";

export function DownloadPage() {
  // On a phone the download goes straight to its store.
  useEffect(() => {
    const store = storeLink();
    if (store) location.assign(store);
  }, []);
  return (
    <section className="page download">
      <DownloadCard />
    </section>
  );
}

import { useTranslation } from "../lib/i18n";
import { Link } from "../lib/router";

import { useLocalePath } from "../lib/paths";

export function NotFoundPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <section className="page empty-page">
      <h1>{t("web.notFound.title")}</h1>
      <Link className="button" to={to("/")}>{t("web.notFound.home")}</Link>
    </section>
  );
}

import { useTranslation } from "../lib/i18n";
import { useLocalePath } from "../lib/paths";
import { Link } from "../lib/router";

/** "Alert me": a new alert on the Alerts page, starting from this token (its news or its
 * price), tag, channel, KOL or word. */
export function AlertMeLink(props: { kind: "token" | "price" | "tag" | "channel" | "kol" | "keyword"; value: string; label?: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const query = new URLSearchParams({ [props.kind]: props.value }).toString();
  return (
    <Link className="button ghost small" to={to(`/alerts?${query}`)}>
      {props.label ?? t("web.alerts.alertMe")}
    </Link>
  );
}

import { useAtomValue, useSetAtom } from "jotai";
import { formatNumber, useTranslation } from "../../lib/i18n";

import { Spinner } from "../../components/ui";
import { useState } from "react";

import { feedbackOpenAtom, loginOpenAtom } from "../../lib/dialogs";
import { mapLink, taskButton, webTaskPress } from "../../lib/core-more";
import { useLocalePath } from "../../lib/paths";
import { useNavigate } from "../../lib/router";
import { mobileOs } from "../../lib/device";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { useCollectTask } from "./api/collect-task";
import { useTwitterStatus } from "./api/get-accounts";
import { type TaskGroup as Group, useTasks } from "./api/get-tasks";
import { useReportTaskEvent } from "./api/report-task-event";
import { InviteDialog } from "./InviteDialog";

/** Tasks: what each button says and does is decided by client-core (`taskButton`, `taskPress`). */
export function TaskPanel() {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  return (
    <section className="tasks" aria-label={t("web.account.tasks")}>
      <h2>{t("web.account.tasks")}</h2>
      {(["novice", "daily", "exchange_register"] as const).map((group) => (
        <TaskGroup key={`${group}-${user?.id ?? 0}`} group={group} loggedIn={!!user} />
      ))}
    </section>
  );
}

function TaskGroup({ group, loggedIn }: { group: Group; loggedIn: boolean }) {
  const { t } = useTranslation();
  const openLogin = useSetAtom(loginOpenAtom);
  const openFeedback = useSetAtom(feedbackOpenAtom);
  const navigate = useNavigate();
  const to = useLocalePath();
  const [inviting, setInviting] = useState(false);
  const twitter = useTwitterStatus();
  const tasks = useTasks(group, loggedIn);
  const reportTaskEvent = useReportTaskEvent();
  const collect = useCollectTask((award) => toast("success", t("task.award.success", { n: award })));
  if (tasks.isPending) return <Spinner />;
  // No partner exchange set up: nothing to show, rather than a task that leads nowhere.
  if (tasks.isError || tasks.data.list.length === 0) return null;
  const mobile = mobileOs() !== null;
  return (
    <div className="task-group">
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
      <h3>{t(`web.account.${group}`)}</h3>
      <ul>
        {tasks.data.list.map((task) => {
          const ctx = { task, group, loggedIn, mobileOs: mobile, twitter };
          const button = taskButton(ctx);
          // What the button does on the web is client-core's rule (`webTaskPress`).
          const press = () => {
            const action = webTaskPress(ctx);
            switch (action.action) {
              case "login":
              case "openMeTab":
                openLogin(true);
                break;
              case "collect":
                collect.mutate(task);
                break;
              case "toast":
                toast("info", t(action.toast));
                break;
              case "navigate":
                navigate(to(action.path));
                break;
              case "showInvite":
                setInviting(true);
                break;
              case "openFeedback":
                openFeedback(true);
                break;
              case "needsApp":
                toast("info", t("web.tasks.needsApp"));
                break;
              case "openAppLink":
              case "reportAndOpen": {
                if (action.action === "reportAndOpen") reportTaskEvent(task.event_type);
                const target = mapLink(action.url);
                if (target.kind === "external") window.open(target.url, "_blank", "noopener,noreferrer");
                else if (target.kind === "internal") navigate(to(target.path));
                else toast("error", t("AppDidNotExist"));
                break;
              }
              case "none":
                break;
            }
          };
          return (
            <li key={task.point_id} className="task">
              <div>
                <strong>{task.title}</strong>
                <span className="award">+{formatNumber(task.award)}</span>
                {task.progress.target > 1 && (
                  <span className="progress">{task.progress.count}/{task.progress.target}</span>
                )}
              </div>
              <button
                type="button"
                className={task.status === "to_receive" ? "button small" : "button small ghost"}
                disabled={button.disabled || collect.isPending}
                onClick={press}
              >
                {t(button.label, { defaultValue: button.label })}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

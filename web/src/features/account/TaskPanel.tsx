import { useAtomValue, useSetAtom } from "jotai";
import { useTranslation } from "../../lib/i18n";

import { Spinner } from "../../components/ui";
import { loginOpenAtom } from "../../lib/dialogs";
import { appLinkErrorKey, isSchemeLink, taskButton, taskPress } from "../../lib/core";
import { mobileOs } from "../../lib/device";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { useCollectTask } from "./api/collect-task";
import { useTwitterStatus } from "./api/get-accounts";
import { type TaskGroup as Group, useTasks } from "./api/get-tasks";
import { reportTaskEvent } from "./api/report-task-event";

/** Tasks: what each button says and does is decided by client-core (`taskButton`, `taskPress`). */
export function TaskPanel() {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  return (
    <section className="tasks" aria-label={t("web.account.tasks")}>
      <h2>{t("web.account.tasks")}</h2>
      {(["novice", "daily"] as const).map((group) => (
        <TaskGroup key={`${group}-${user?.id ?? 0}`} group={group} loggedIn={!!user} />
      ))}
    </section>
  );
}

function TaskGroup({ group, loggedIn }: { group: Group; loggedIn: boolean }) {
  const { t } = useTranslation();
  const openLogin = useSetAtom(loginOpenAtom);
  const twitter = useTwitterStatus();
  const tasks = useTasks(group, loggedIn);
  const collect = useCollectTask((award) => toast("success", t("task.award.success", { n: award })));
  if (tasks.isPending) return <Spinner />;
  if (tasks.isError) return null;
  const mobile = mobileOs() !== null;
  return (
    <div className="task-group">
      <h3>{t(`web.account.${group}`)}</h3>
      <ul>
        {tasks.data.list.map((task) => {
          const ctx = { task, group, loggedIn, mobileOs: mobile, twitter };
          const button = taskButton(ctx);
          const press = () => {
            const action = taskPress(ctx);
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
              case "openAppLink":
              case "reportAndOpen": {
                if (action.action === "reportAndOpen") {
                  void reportTaskEvent(task.event_type);
                }
                // App links only open inside the app: say so on the web.
                if (isSchemeLink(action.url)) toast("error", t(appLinkErrorKey(task.event_type), { defaultValue: t("AppDidNotExist") }));
                else window.open(action.url, "_blank", "noopener,noreferrer");
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
                <span className="award">+{task.award}</span>
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

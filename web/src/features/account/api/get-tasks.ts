import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TaskView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { accountKeys } from "./keys";

export type TaskGroup = "novice" | "daily" | "exchange_register";

export const getTasks = (group: TaskGroup) => call<{ list: TaskView[] }>("/point/task/list", { group });

/** Tasks differ by sign-in state and are written in the reader's language. */
export const tasksQueryOptions = (group: TaskGroup, loggedIn: boolean, locale: string) =>
  queryOptions({ queryKey: accountKeys.tasks(group, loggedIn, locale), queryFn: () => getTasks(group) });

export function useTasks(group: TaskGroup, loggedIn: boolean) {
  return useQuery(tasksQueryOptions(group, loggedIn, useTranslation().i18n.language));
}

import { useMutation, useQueryClient } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TaskView } from "../../../lib/api-types";
import { accountKeys } from "./keys";

export const collectTask = (task: TaskView) => call<{ award: number }>("/point/collect", { point_id: task.point_id });

/** Collecting changes the tasks, the balance and the ledger. */
export function useCollectTask(onCollected: (award: number, task: TaskView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: collectTask,
    onSuccess: (done, task) => {
      onCollected(done.award ?? task.award, task);
      for (const key of [accountKeys.tasks(), accountKeys.balance(), accountKeys.ledger()]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
}

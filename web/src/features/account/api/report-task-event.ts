import { useQueryClient } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { accountKeys } from "./keys";

/** Tells the server a deed it cannot see happened (opening the store page, say); never toasted.
 * The tasks are read again, so a reader back from the store finds the award to collect. */
export function useReportTaskEvent(): (eventType: string) => void {
  const queryClient = useQueryClient();
  return (eventType) =>
    void call("/point/task_event_report", { event_type: eventType }, { silent: true }).then(
      () => queryClient.invalidateQueries({ queryKey: accountKeys.tasks() }),
      () => {},
    );
}

import { call } from "../../../lib/api";

/** Tells the server a deed it cannot see happened (opening a shared link, say); never toasted. */
export const reportTaskEvent = (eventType: string) =>
  call("/point/task_event_report", { event_type: eventType }, { silent: true });

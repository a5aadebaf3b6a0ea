import { call } from "../../../lib/api";

/** What a reader can report: what others wrote, and a reader's profile. */
export type ReportKind = "comment" | "post" | "question" | "answer" | "profile";

export const report = (kind: ReportKind, id: number, reason: string) => call("/report/add", { kind, id, reason });

import { call } from "../../../lib/api";
import type { FeedbackForm } from "../../../lib/core";

export const createFeedback = (form: FeedbackForm) => call("/feedback/create", form);

import { upload } from "../../../lib/api";

/** One image, before the form is sent; the answer is its public address. */
export const uploadFeedbackImage = (file: File) => {
  const body = new FormData();
  body.append("img_file", file);
  return upload<{ absolute: string }>("/img/upload/feedback/v2", body);
};

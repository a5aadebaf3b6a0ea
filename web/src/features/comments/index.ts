export { CommentThread } from "./CommentThread";
export { CommentText } from "./CommentText";
export { ReaderText } from "./ReaderText";
export { isShown, threadChanged } from "./api/comments";

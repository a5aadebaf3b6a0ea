export { RecommendTagPage } from "./RecommendTagPage";
export { TagPage } from "./TagPage";
export { useTags } from "./api/get-tags";
export { TagPicker } from "./TagPicker";
export { useFollowedTags } from "./api/get-followed-tags";

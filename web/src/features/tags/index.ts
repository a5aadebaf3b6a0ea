export { RecommendTagPage } from "./RecommendTagPage";
export { TagPage } from "./TagPage";

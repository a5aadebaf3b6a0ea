export { RecommendTagPage } from "./RecommendTagPage";

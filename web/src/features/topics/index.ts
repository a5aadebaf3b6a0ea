export { TopicPage } from "./TopicPage";

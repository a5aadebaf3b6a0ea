export { AskPage } from "./AskPage";
export { QuestionPage } from "./QuestionPage";
export { QuestionsPage } from "./QuestionsPage";

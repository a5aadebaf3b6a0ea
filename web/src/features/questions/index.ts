export { AskPage } from "./AskPage";
export { QuestionPage } from "./QuestionPage";
export { FollowedQuestions, QuestionsPage } from "./QuestionsPage";

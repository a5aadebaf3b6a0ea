export { SentimentBar } from "./Sentiment";
export { VoteBar } from "./VoteBar";

export { MarketsPage, TokenMarket } from "./MarketsPage";

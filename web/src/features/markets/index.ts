export { ExchangeList } from "./ExchangeList";
export { MarketsPage, TokenMarket } from "./MarketsPage";

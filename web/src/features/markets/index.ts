export { ExchangeList } from "./ExchangeList";
export { MarketsPage, TokenMarket } from "./MarketsPage";
export { PresalesPage } from "./PresalesPage";
export { useFollowedTokens, useOverview } from "./api/markets";

export { FavoritesPage, HistoryPage } from "./ShelfPage";

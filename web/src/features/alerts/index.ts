export { AlertsPage } from "./AlertsPage";

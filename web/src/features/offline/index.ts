export { AppStatus } from "./AppStatus";
export { keepForOffline, keptItem, markOffline } from "./shelf";
export { startServiceWorker } from "./worker";

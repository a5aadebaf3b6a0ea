export { LiveStream, liveUnreadAtom, liveUpAtom, useLive } from "./live";
export type { LiveEvent, LiveWant } from "./live";

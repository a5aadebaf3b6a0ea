export { ChannelPage } from "./ChannelPage";

export { ProfileEditor } from "./ProfileEditor";
export { ProfilePage } from "./ProfilePage";

export { exportUserData } from "./data-export.ts";
export { profileName, setProfilePhoto } from "./profile.ts";
export { readUserDocument, type UserDocument } from "./user-document.ts";

export { exportUserData } from "./data-export.ts";
export { PhotoError } from "./profile-photo.ts";
export { profileName, setProfilePhoto } from "./profile.ts";
export { readUserDocument, type UserDocument } from "./user-document.ts";

/** The message a Google sign-in popup sends to the page that opened it. */
export const popupMessage = "academy:signed-in";

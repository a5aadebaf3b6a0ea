/** Where providers send the sign-in popup back (`callbackPage.ts` answers there). */
export const CALLBACK_PATH = "/oauth/by/web";

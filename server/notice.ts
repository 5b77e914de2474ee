/**
 * A message shown once, on the next page the browser opens ("E-mail verified"), carried there by a
 * short-lived cookie that the page clears as it shows the message.
 */
export const notices = {
  "email-verified": "E-mail verified. Welcome to Academy!",
} as const;

export type NoticeKey = keyof typeof notices;

const cookieName = "academy_notice";

/** The cookie's attributes; Secure wherever the site is served over https. */
function attributes(publicUrl: string, maxAge: number): string {
  return `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${publicUrl.startsWith("https:") ? "; Secure" : ""}`;
}

/** Set on a redirect: the page it leads to says `key`. */
export function noticeCookie(key: NoticeKey, publicUrl: string): string {
  return `${cookieName}=${key}; ${attributes(publicUrl, 60)}`;
}

export function clearNoticeCookie(publicUrl: string): string {
  return `${cookieName}=; ${attributes(publicUrl, 0)}`;
}

/** The notice this request carries, if it names one we know. */
export function readNotice(cookieHeader: string | null): NoticeKey | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === cookieName && value && Object.hasOwn(notices, value)) return value as NoticeKey;
  }
  return null;
}

/**
 * A message shown once, on the next page the browser opens ("E-mail verified"), carried there by a
 * short-lived cookie that the page clears as it shows the message.
 */
export const notices = {
  "email-verified": "E-mail verified. Welcome to Academy!",
} as const;

export type NoticeKey = keyof typeof notices;

const cookieName = "academy_notice";

function attributes(secure: boolean, maxAge: number): string {
  return `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Set on a redirect: the page it leads to says `key`. */
export function noticeCookie(key: NoticeKey, secure: boolean): string {
  return `${cookieName}=${key}; ${attributes(secure, 60)}`;
}

export function clearNoticeCookie(secure: boolean): string {
  return `${cookieName}=; ${attributes(secure, 0)}`;
}

/** The notice this request carries, if it names one we know. */
export function readNotice(cookieHeader: string | null): NoticeKey | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === cookieName && value && Object.hasOwn(notices, value)) return value as NoticeKey;
  }
  return null;
}

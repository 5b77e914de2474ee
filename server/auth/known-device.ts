import { createHash, randomBytes } from "node:crypto";

/**
 * A browser that has signed in to an account carries a signed cookie saying so (OWASP's "device
 * cookie"): its failed sign-ins are counted apart from everyone else's, so a stranger guessing the
 * password locks the account for strangers, not for its owner's own devices.
 */
export const knownDeviceCookie = "academy_device";

/** A year, as browsers allow a cookie to last at most 400 days. */
export const knownDeviceMaxAgeSeconds = 365 * 24 * 60 * 60;

const accountDigest = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22);

/** An id for a browser that has none yet. */
export const newDeviceId = () => randomBytes(12).toString("base64url");

/** The cookie's value for a device that just signed in to `email`: its id and whose it is. */
export function knownDeviceValue(email: string, device: string): string {
  return `${device}.${accountDigest(email)}`;
}

/** The device's id when the cookie's (verified) value says it signed in to `email` before; null otherwise. */
export function knownDevice(value: string | false | null, email: string): string | null {
  if (!value) return null;
  const [device, owner] = value.split(".");
  return device && owner === accountDigest(email) ? device : null;
}

/** The device's id from a cookie value, whichever account it last signed in to. */
export function deviceOf(value: string | false | null): string | null {
  return value ? (value.split(".")[0] ?? null) : null;
}

/**
 * The client's address. With `proxyHops` proxies of ours in front, each appends the address it
 * saw to X-Forwarded-For, so the one the outermost proxy wrote is that many entries from the end;
 * anything to its left was written by the client and is ignored.
 */
export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, proxyHops: number): string {
  if (proxyHops > 0 && forwardedFor) {
    const entries = forwardedFor.split(",").map((entry) => entry.trim()).filter(Boolean);
    const entry = entries[Math.max(0, entries.length - proxyHops)];
    if (entry) return entry;
  }
  return socketAddress || "unknown";
}

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopback(address: string): boolean {
  const plain = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return plain === "::1" || /^127(\.\d{1,3}){3}$/.test(plain);
}

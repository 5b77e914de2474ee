/** "Chrome on Android" from a User-Agent header; good enough to tell one's own devices apart. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser =
    (userAgent.startsWith("academy-cli/") && "Academy CLI") ||
    (/Edg\//.test(userAgent) && "Edge") ||
    (/OPR\//.test(userAgent) && "Opera") ||
    (/Firefox\//.test(userAgent) && "Firefox") ||
    (/(Chrome|Chromium|CriOS)\//.test(userAgent) && "Chrome") ||
    (/Safari\//.test(userAgent) && "Safari") ||
    (/curl|node|undici/i.test(userAgent) && "Command-line client") ||
    "Browser";
  const os =
    (/Android/.test(userAgent) && "Android") ||
    (/iPhone|iPad|iPod/.test(userAgent) && "iOS") ||
    (/Windows/.test(userAgent) && "Windows") ||
    (/Mac OS X|Macintosh/.test(userAgent) && "macOS") ||
    (/CrOS/.test(userAgent) && "ChromeOS") ||
    (/Linux/.test(userAgent) && "Linux") ||
    null;
  return os ? `${browser} on ${os}` : browser;
}

import { describe, expect, it } from "vitest";
import { accessRedirect, safeRedirectTarget, type Viewer } from "./access.ts";

const viewer = (emailVerified: boolean): Viewer => ({ id: "u1", name: "A", email: "a@example.com", image: null, emailVerified, sessionId: "s1" });

describe("access redirects", () => {
  it("redirects an unverified user to /verify-email from every other path, replacing history and remembering where they were going", () => {
    for (const path of ["/", "/login", "/logout"]) {
      expect(accessRedirect(path, "", viewer(false))).toEqual({ to: "/verify-email", replace: true });
    }
    expect(accessRedirect("/courses/react-fundamentals/confirm", "", viewer(false))).toEqual({
      to: "/verify-email?redirectTo=%2Fcourses%2Freact-fundamentals%2Fconfirm",
      replace: true,
    });
    expect(accessRedirect("/account/orders", "?page=2", viewer(false))?.to).toBe("/verify-email?redirectTo=%2Faccount%2Forders%3Fpage%3D2");
    // A sign-in's own destination is where they were going; another site is not.
    expect(accessRedirect("/login", "?redirectTo=%2Fcourses%2Fx%2Fconfirm", viewer(false))?.to).toBe("/verify-email?redirectTo=%2Fcourses%2Fx%2Fconfirm");
    expect(accessRedirect("/login", "?redirectTo=https%3A%2F%2Fevil.example", viewer(false))?.to).toBe("/verify-email");
    expect(accessRedirect("/verify-email", "", viewer(false))).toBeNull();
    // A link that did not work is explained, whoever opens it.
    expect(accessRedirect("/email-verified", "?error=TOKEN_EXPIRED", viewer(false))).toBeNull();
    // The CLI's hand-off waits for the verification and then goes on.
    expect(accessRedirect("/login", "?cliToken=ABCD-EFGH", viewer(false))).toEqual({ to: "/verify-email?redirectTo=%2Flogin%3FcliToken%3DABCD-EFGH", replace: true });
  });

  it("sends a verified user away from /verify-email to /, or on to where they were going", () => {
    expect(accessRedirect("/verify-email", "", viewer(true))).toEqual({ to: "/", replace: true });
    expect(accessRedirect("/verify-email", "?redirectTo=%2Flogin%3FcliToken%3DABCD-EFGH", viewer(true))).toEqual({ to: "/login?cliToken=ABCD-EFGH", replace: true });
    expect(accessRedirect("/verify-email", "?redirectTo=https%3A%2F%2Fevil.example", viewer(true))).toEqual({ to: "/", replace: true });
    expect(accessRedirect("/profile", "", viewer(true))).toBeNull();
  });

  it("sends signed-out visitors of account pages to sign in and back", () => {
    expect(accessRedirect("/account/orders", "?page=2", null)).toEqual({
      to: "/login?redirectTo=%2Faccount%2Forders%3Fpage%3D2",
      replace: false,
    });
    for (const path of ["/account", "/profile", "/settings", "/notes", "/verify-email", "/courses/c/MainPage", "/courses/c/complete", "/courses/c/confirm"]) {
      expect(accessRedirect(path, "", null)?.to).toMatch(/^\/login\?redirectTo=/);
    }
    // A lesson page decides for itself: free previews are open to visitors.
    for (const path of ["/", "/courses", "/accounting", "/login", "/help", "/courses/c/submodule/1-1"]) {
      expect(accessRedirect(path, "", null)).toBeNull();
    }
  });

  it("follows only same-site redirect targets", () => {
    expect(safeRedirectTarget("/account/orders?x=1")).toBe("/account/orders?x=1");
    expect(safeRedirectTarget("https://evil.example/")).toBe("/");
    expect(safeRedirectTarget("//evil.example/")).toBe("/");
    expect(safeRedirectTarget("/\\evil.example")).toBe("/");
    expect(safeRedirectTarget(null, "/profile")).toBe("/profile");
  });

  it("does not follow whitespace, backslash or encoded tricks off the site", () => {
    for (const value of ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "\\\\evil.example", "/\\/evil.example", "\\/evil.example", " //evil.example", "\t//evil.example", "javascript:alert(1)", "https:evil.example", "http://academy.invalid@evil.example/"]) {
      expect(safeRedirectTarget(value), JSON.stringify(value)).toBe("/");
    }
  });

  it("does not follow dot segments or encodings that resolve to a path starting with two slashes", () => {
    const variants = [
      "/.//evil.example",
      "/./\\evil.example",
      "/a/..//evil.example",
      "/a/../\\evil.example",
      "/%2e//evil.example",
      "/%2E//evil.example",
      "/%2e%2e//evil.example",
      "/a/%2e%2e//evil.example",
      "/.%2e//evil.example",
      "/././/evil.example",
      "/.\\/evil.example",
      "./..//evil.example",
      "..//evil.example",
      ".//evil.example",
      decodeURIComponent("%2F.%2F%2Fevil.example"),
    ];
    for (const value of variants) {
      const target = safeRedirectTarget(value);
      expect(target, JSON.stringify(value)).not.toMatch(/^\/[/\\]/);
      // Followed the way a browser follows a Location header, it stays on this site.
      expect(new URL(target, "https://academy.test/").origin, JSON.stringify(value)).toBe("https://academy.test");
    }
    // Double encoding stays encoded: a path on this site, never decoded twice.
    expect(safeRedirectTarget("/%252e//evil.example")).toBe("/%252e//evil.example");
    expect(new URL(safeRedirectTarget("%2F%2Fevil.example"), "https://academy.test/").origin).toBe("https://academy.test");
    // Dot segments that stay on the site still lead where they say.
    expect(safeRedirectTarget("/courses/./react/../html?x=1")).toBe("/courses/html?x=1");
  });

  it("sends a verified visitor of /verify-email home when its redirectTo resolves off the site", () => {
    expect(accessRedirect("/verify-email", "?redirectTo=%2F.%2F%2Fevil.example", viewer(true))).toEqual({ to: "/", replace: true });
    expect(accessRedirect("/login", "?redirectTo=%2Fa%2F..%2F%2Fevil.example", viewer(false))?.to).toBe("/verify-email");
  });

  it("returns a clean path with no line breaks for a header", () => {
    expect(safeRedirectTarget("/account\r\nSet-Cookie: x=1")).toBe("/accountSet-Cookie:%20x=1");
    expect(safeRedirectTarget("/courses?q=a b#top")).toBe("/courses?q=a%20b#top");
  });
});

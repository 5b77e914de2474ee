import { describe, expect, it } from "vitest";
import { writeOrigin } from "./site-origin.ts";

const site = ["https://academy.example"];
const dev = ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"];

describe("write origin", () => {
  it("accepts a form sent from the site itself, also when the server sees plain http behind a proxy", () => {
    expect(writeOrigin({ origin: "https://academy.example", secFetchSite: "same-origin" }, site)).toBe("https://academy.example");
  });

  it("refuses another site's form, and look-alikes of ours", () => {
    for (const origin of ["https://evil.example", "http://academy.example", "https://academy.example.evil", "null"]) {
      expect(writeOrigin({ origin, secFetchSite: "cross-site" }, site)).toBeNull();
    }
  });

  it("without an Origin header, accepts only what the browser marks same-origin", () => {
    expect(writeOrigin({ origin: undefined, secFetchSite: "same-origin" }, site)).toBe("https://academy.example");
    expect(writeOrigin({ origin: undefined, secFetchSite: "cross-site" }, site)).toBeNull();
    expect(writeOrigin({ origin: undefined, secFetchSite: undefined }, site)).toBeNull();
  });

  it("in development, takes localhost, 127.0.0.1 and [::1] as the same site", () => {
    for (const origin of dev) expect(writeOrigin({ origin, secFetchSite: "same-origin" }, dev)).toBe(origin);
  });
});

import { describe, expect, it } from "vitest";
import { clientAddress, isLoopback } from "./client-address.ts";

describe("client address", () => {
  it("uses the socket address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.4", 0)).toBe("198.51.100.4");
  });

  it("takes the entry our proxy appended, not the left-most one the client wrote", () => {
    expect(clientAddress("6.6.6.6, 203.0.113.9", "127.0.0.1", 1)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", "127.0.0.1", 1)).toBe("203.0.113.9");
  });

  it("counts back one entry per trusted proxy", () => {
    expect(clientAddress("6.6.6.6, 203.0.113.9, 10.0.0.2", "10.0.0.3", 2)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", "10.0.0.3", 2)).toBe("203.0.113.9");
  });

  it("falls back to the socket when a trusted proxy sent no X-Forwarded-For", () => {
    expect(clientAddress(undefined, "10.0.0.3", 1)).toBe("10.0.0.3");
    expect(clientAddress(" , ", "10.0.0.3", 1)).toBe("10.0.0.3");
  });
});

describe("loopback", () => {
  it("knows this machine's addresses", () => {
    for (const address of ["127.0.0.1", "127.9.8.7", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(address)).toBe(true);
    for (const address of ["10.0.0.1", "::ffff:10.0.0.1", "192.168.1.1", "unknown", "127.0.0.1.evil", "fe80::1"]) {
      expect(isLoopback(address)).toBe(false);
    }
  });
});

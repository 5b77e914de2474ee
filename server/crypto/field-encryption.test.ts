import { createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { createFieldCipher, decryptFields, encryptFields, EncryptionError } from "./field-encryption.ts";

// Passed through, and counted: a stored value is decrypted once while the cipher keeps it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, createDecipheriv: vi.fn(actual.createDecipheriv) };
});

const cipher = createFieldCipher(randomBytes(32));

describe("field encryption", () => {
  it("round-trips text in the v1 form with a fresh IV each time", () => {
    const a = cipher.encrypt("Priya Sharma ✓");
    const b = cipher.encrypt("Priya Sharma ✓");
    expect(a).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(cipher.decrypt(a)).toBe("Priya Sharma ✓");
  });

  it("fails with the spec's text for tampered values and for another key's values", () => {
    const value = cipher.encrypt("secret");
    const tampered = value.slice(0, -4) + (value.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => cipher.decrypt(tampered)).toThrow(new EncryptionError("Failed to decrypt value"));
    expect(() => createFieldCipher(randomBytes(32)).decrypt(value)).toThrow("Failed to decrypt value");
    expect(() => cipher.decrypt("plain text")).toThrow("Failed to decrypt value");
  });

  it("fails with the spec's text when encryption itself fails", () => {
    expect(() => createFieldCipher(Buffer.alloc(7)).encrypt("x")).toThrow(new EncryptionError("Failed to encrypt value"));
  });

  it("encrypts only the named fields, skipping null and undefined", () => {
    const record = { name: "Arjun", email: "arjun@example.com", profilePicUrl: null as string | null, createdAt: new Date(0) };
    const stored = encryptFields(cipher, record, ["name", "email", "profilePicUrl"]);
    expect(stored.name).toMatch(/^v1:/);
    expect(stored.email).toMatch(/^v1:/);
    expect(stored.profilePicUrl).toBeNull();
    expect(stored.createdAt).toBe(record.createdAt);
    expect(decryptFields(cipher, stored, ["name", "email", "profilePicUrl"])).toEqual(record);
  });

  it("keeps a value that does not decrypt as it is", () => {
    const legacy = { name: "Plain Name", email: cipher.encrypt("x@example.com") };
    expect(decryptFields(cipher, legacy, ["name", "email"])).toEqual({ name: "Plain Name", email: "x@example.com" });
  });

  it("decrypts a stored value once while it is kept, and keeps only the most recent ones", () => {
    const small = createFieldCipher(randomBytes(32), { entries: 2, bytes: 1024 * 1024, valueChars: 1024 });
    const [a, b, c] = ["first", "second", "third"].map((text) => small.encrypt(text)) as [string, string, string];
    vi.mocked(createDecipheriv).mockClear();
    expect([small.decrypt(a), small.decrypt(a), small.decrypt(b), small.decrypt(a)]).toEqual(["first", "first", "second", "first"]);
    expect(createDecipheriv).toHaveBeenCalledTimes(2);
    expect(small.decrypt(c)).toBe("third");
    expect(small.decrypt(a)).toBe("first");
    expect(createDecipheriv).toHaveBeenCalledTimes(4);
    const tampered = a.slice(0, -4) + (a.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => small.decrypt(tampered)).toThrow(new EncryptionError("Failed to decrypt value"));
  });

  it("keeps decrypted values within a size in bytes, and never keeps a long one", () => {
    // Each short value kept here takes 2 × (stored + plain) characters, about 105 bytes: two fit in 300.
    const bounded = createFieldCipher(randomBytes(32), { entries: 1_000, bytes: 300, valueChars: 1_000 });
    const short = ["one", "two", "three", "four"].map((text) => bounded.encrypt(text)) as [string, string, string, string];
    const long = bounded.encrypt("x".repeat(20_000));
    vi.mocked(createDecipheriv).mockClear();
    for (const value of short) bounded.decrypt(value);
    expect(createDecipheriv).toHaveBeenCalledTimes(4);
    expect(bounded.decrypt(short[3])).toBe("four");
    expect(bounded.decrypt(short[2])).toBe("three");
    expect(createDecipheriv).toHaveBeenCalledTimes(4);
    expect(bounded.decrypt(short[0])).toBe("one");
    expect(createDecipheriv).toHaveBeenCalledTimes(5);
    expect(bounded.decrypt(long)).toHaveLength(20_000);
    expect(bounded.decrypt(long)).toHaveLength(20_000);
    expect(createDecipheriv).toHaveBeenCalledTimes(7);
  });

  it("digests parts with a key of its own: equal parts alike, anything else apart, nothing a plain hash could confirm", () => {
    const key = randomBytes(32);
    const one = createFieldCipher(key);
    expect(one.digest("Title", "Body", null)).toBe(createFieldCipher(key).digest("Title", "Body", null));
    expect(one.digest("Title", "Body", null)).toMatch(/^[\w-]{43}$/);
    expect(one.digest("ab", "c")).not.toBe(one.digest("a", "bc"));
    expect(one.digest("Title", "Body", null)).not.toBe(one.digest("Title", "Body", ""));
    expect(one.digest("Title", "Body", null)).not.toBe(createFieldCipher(randomBytes(32)).digest("Title", "Body", null));
    expect(one.digest("Title")).not.toBe(createHmac("sha256", key).update(JSON.stringify(["Title"])).digest("base64url"));
  });
});

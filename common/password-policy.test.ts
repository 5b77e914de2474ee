import { describe, expect, it } from "vitest";
import { loadPasswordCheck, ownerWords } from "./password-policy.ts";

const check = await loadPasswordCheck();
const owner = { name: "Meera Krishnan", email: "meera.k@example.com" };

describe("the password policy", () => {
  it.each(["password", "12345678", "aaaaaaaa", "Password1!", "qwertyuiop", "iloveyou"])("refuses %s, with a specific reason and advice", (password) => {
    const verdict = check(password, owner);
    expect(verdict.ok).toBe(false);
    expect(verdict.level).toBe(1);
    expect(verdict.label).toMatch(/^Too weak: /);
    expect(verdict.message).toMatch(/^Choose a stronger password\. \S.+\. \S.+\.$/);
  });

  it("says a common password is on the common list", () => {
    expect(check("password", owner).message).toBe("Choose a stronger password. It is on the list of the most common passwords. Add more words that are less common.");
  });

  it("names repeated characters as the problem", () => {
    expect(check("aaaaaaaa").label).toBe('Too weak: Repeated characters like "aaa" are easy to guess.');
  });

  it.each(["Meera Krishnan", "meerakrishnan", "meera.k@example.com", "meerakrishnan1", "Academy2026"])("refuses %s as the person's own name, e-mail or the site's name", (password) => {
    const verdict = check(password, owner);
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toContain("It is made of your name, your e-mail address or the site's name.");
  });

  it("accepts a passphrase of four random words, and says it is strong", () => {
    expect(check("velvet quarry lantern biscuit", owner)).toEqual({ ok: true, level: 4, label: "Strong: a good choice", message: "" });
  });

  it("refuses a password one step short of the bar, and says it is almost strong enough", () => {
    expect(check("blue dolphin", owner)).toMatchObject({ ok: false, level: 2, label: "Almost strong enough: Add more words that are less common." });
  });

  it("accepts a two-word passphrase as good, with a nudge to add a word", () => {
    expect(check("purple monkey", owner)).toEqual({ ok: true, level: 3, label: "Good: one more word would make it strong", message: "" });
  });

  it("refuses fewer than 8 or more than 128 characters before looking anything up", () => {
    expect(check("x7#q").message).toBe("Your password needs at least 8 characters.");
    expect(check("velvet quarry ".repeat(10)).message).toBe("Your password can have at most 128 characters.");
  });

  it("uses the name, each part of it, the e-mail and its local part as the person's own words", () => {
    expect(ownerWords(owner)).toEqual(expect.arrayContaining(["meera krishnan", "meerakrishnan", "meera", "krishnan", "meera.k@example.com", "meera.k", "meerak", "academy"]));
  });
});

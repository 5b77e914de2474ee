import type { ZxcvbnResult } from "@zxcvbn-ts/core";
import { passwordLength } from "./limits.ts";

/**
 * The one password policy, for the server that enforces it and the meter that explains it
 * (DESIGN.md: at least 8 characters, common and weak passwords refused; NIST SP 800-63B). The
 * estimator's dictionaries are about 2 MB, so both sides load them on first use: a page without a
 * password field never downloads them.
 */

/** Words that make a password easy to guess on this site in particular. */
const siteWords = ["academy"];

/** zxcvbn's scores run 0–4; below 3 a password falls to an online guessing attack in days. */
const minimumScore = 3;

/** The person the password is for, whose name and e-mail must not be most of it. */
export interface PasswordOwner {
  name?: string | null;
  email?: string | null;
}

/** 0 is no password typed yet; 1 too weak; 2 almost strong enough (still refused); 3 good; 4 strong. */
export type PasswordLevel = 0 | 1 | 2 | 3 | 4;

export interface PasswordVerdict {
  ok: boolean;
  level: PasswordLevel;
  /** A short line for the meter under the field. */
  label: string;
  /** Why the server refused it, in a sentence the person can act on; empty when accepted. */
  message: string;
}

export type PasswordCheck = (password: string, owner?: PasswordOwner) => PasswordVerdict;

/** zxcvbn's English feedback, with the one sentence that reads like jargon said plainly. */
const plainWarnings = {
  userInputs: "It is made of your name, your e-mail address or the site's name.",
};

/** Lowercase words of the owner's name and e-mail that zxcvbn should treat as known to an attacker. */
export function ownerWords(owner: PasswordOwner = {}): string[] {
  const name = owner.name?.trim().toLowerCase() ?? "";
  const email = owner.email?.trim().toLowerCase() ?? "";
  const local = email.split("@")[0] ?? "";
  const words = [name, name.replace(/\s+/g, ""), ...name.split(/\s+/), email, local, local.replace(/[^a-z0-9]/g, ""), ...local.split(/[^a-z0-9]+/), ...siteWords];
  return [...new Set(words.filter((word) => word.length >= 3))];
}

const tooShort: PasswordVerdict = {
  ok: false,
  level: 1,
  label: `Too short: use at least ${passwordLength.min} characters`,
  message: `Your password needs at least ${passwordLength.min} characters.`,
};

const tooLong: PasswordVerdict = {
  ok: false,
  level: 1,
  label: `Too long: use at most ${passwordLength.max} characters`,
  message: `Your password can have at most ${passwordLength.max} characters.`,
};

/** Turns zxcvbn's estimate into the site's decision and its words. */
export function judgePassword(password: string, result: ZxcvbnResult): PasswordVerdict {
  const whole = (match: ZxcvbnResult["sequence"][number]) => match.i === 0 && match.j === password.length - 1;
  const common = result.sequence.some((match) => match.pattern === "dictionary" && match.dictionaryName === "passwords-common" && whole(match));
  const personal = result.sequence
    .filter((match) => match.pattern === "dictionary" && match.dictionaryName === "userInputs")
    .reduce((sum, match) => sum + match.j - match.i + 1, 0);
  const mostlyPersonal = personal * 2 >= password.length;
  const warning = mostlyPersonal ? plainWarnings.userInputs : common ? "It is on the list of the most common passwords." : result.feedback.warning;
  const advice = mostlyPersonal ? "Use a few random words that have nothing to do with you." : (result.feedback.suggestions[0] ?? "Add another word or two.");
  if (common || mostlyPersonal || result.score < minimumScore) {
    const reason = warning ?? "It would be quick to guess.";
    const nearly = !common && !mostlyPersonal && result.score === minimumScore - 1;
    return {
      ok: false,
      level: nearly ? 2 : 1,
      label: nearly ? `Almost strong enough: ${advice}` : `Too weak: ${reason}`,
      message: `Choose a stronger password. ${reason} ${advice}`,
    };
  }
  return result.score >= 4
    ? { ok: true, level: 4, label: "Strong: a good choice", message: "" }
    : { ok: true, level: 3, label: "Good: one more word would make it strong", message: "" };
}

/** Checks the length rules that need no dictionary; null when the estimator must decide. */
export function lengthVerdict(password: string): PasswordVerdict | null {
  if (password.length < passwordLength.min) return tooShort;
  if (password.length > passwordLength.max) return tooLong;
  return null;
}

let loading: Promise<PasswordCheck> | undefined;

/** The policy with its dictionaries, loaded once per process or page on first call. */
export function loadPasswordCheck(): Promise<PasswordCheck> {
  loading ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]).then(
    ([core, common, english]) => {
      // Levenshtein matching is left off: it made a check take 100–500 ms instead of under 30.
      const estimator = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      });
      return (password, owner) => lengthVerdict(password) ?? judgePassword(password, estimator.check(password, ownerWords(owner)));
    },
  );
  return loading;
}

import { domainToASCII } from "node:url";
import { ValidationError } from "../errors.ts";

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const topLevel = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A website's domain as a customer types it, as the hostname we store: trimmed, lower-cased and
 * in its ASCII form (an internationalised name becomes xn--…). Refuses, with what to fix, a scheme,
 * a path, a port, an IP address, a single label and anything that is not a hostname.
 */
export function normaliseDomain(input: string): string {
  const typed = input.trim().toLowerCase().replace(/\.$/, "");
  if (!typed) throw new ValidationError("Enter your website's domain, like shop.example.in.");
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(typed)) {
    throw new ValidationError("Enter the domain alone, without http:// or https://, like shop.example.in.");
  }
  if (/[/?#]/.test(typed)) throw new ValidationError("Enter the domain alone, without a path, like shop.example.in.");
  if (typed.includes(":")) throw new ValidationError("Enter the domain without a port, like shop.example.in.");
  if (/^[\d.]+$/.test(typed)) throw new ValidationError("Enter a domain name, not an IP address, like shop.example.in.");
  const ascii = domainToASCII(typed);
  const labels = ascii.split(".");
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l)) || !topLevel.test(labels.at(-1) ?? "")) {
    throw new ValidationError("That does not look like a domain. Use letters, digits and hyphens between dots, like shop.example.in.");
  }
  return ascii;
}

import type { Locator, Page } from "@playwright/test";

/**
 * The header's menu button on a phone: the <summary> of a <details>, which has no ARIA role to find
 * it by (browsers expose it as a button of their own kind). Its name says what a press does: "Open
 * menu" or "Close menu", both in its text. The account menu is a <summary> in the header too until
 * its script arrives.
 */
export const menuToggle = (scope: Page | Locator): Locator => scope.locator("header summary").filter({ hasText: "Open menu" });

import type { Locator, Page } from "@playwright/test";

/**
 * The header's menu button on a phone: the <summary> of a <details>, which has no ARIA role to find
 * it by (browsers expose it as a button of their own kind). Its name says what a press does: "Open
 * menu" or "Close menu".
 */
export const menuToggle = (scope: Page | Locator): Locator => scope.locator("header summary");

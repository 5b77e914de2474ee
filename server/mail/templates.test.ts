import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog, type Site } from "../catalog/index.ts";
import type { MailMessage } from "./outbox.ts";
import {
  hostingNotStartedMail,
  hostingReceiptMail,
  passwordResetMail,
  receiptMail,
  refundProcessedMail,
  refundRequestedMail,
  renewalReminderMail,
  verificationMail,
} from "./templates.ts";

const site: Site = (await loadCatalog(path.resolve(import.meta.dirname, "../../content"))).site;

const url = "https://academy.test";
const receipt = {
  orderNumber: "ACD-000042",
  amount: "₹2,999",
  amounts: {
    caption: "Amounts on invoice ACD-000042",
    rows: [
      ["UI/UX Design for Developers", "₹2,795.76"],
      ["Discount (coupon WELCOME10)", "-₹254.24"],
      ["Taxable value", "₹2,541.52"],
      ["CGST @ 9%", "₹228.74"],
      ["SGST @ 9%", "₹228.74"],
    ] as [string, string][],
    total: ["Total paid", "₹2,999.00"] as [string, string],
  },
  paymentId: "pay_Abc123Def456Gh",
  paidOn: "25 November 2026",
  receiptUrl: `${url}/account/orders/7f1c/receipt`,
};

/** Every mail we send, for one person whose name is whatever they typed. */
function everyMail(name: string): Record<string, MailMessage> {
  const to = { email: "asha@example.com", name };
  return {
    verification: verificationMail(site, to, `${url}/api/auth/verify-email?token=abc&callbackURL=%2F`),
    "password reset": passwordResetMail(site, to, `${url}/reset-password/abc?callbackURL=%2Flogin`),
    receipt: receiptMail(site, to, { ...receipt, courseTitle: "UI/UX Design for Developers", courseUrl: `${url}/courses/ui-ux-design/MainPage` }),
    "hosting receipt": hostingReceiptMail(site, to, {
      ...receipt,
      title: "Business website, yearly",
      domain: "shop.example.in",
      until: "25 November 2027",
      websiteUrl: `${url}/account/services/websites/9a2b`,
    }),
    "hosting not started": hostingNotStartedMail(site, to, {
      ...receipt,
      title: "Business website, yearly",
      domain: "shop.example.in",
      reason: "domain-taken",
      ordersUrl: `${url}/account/orders`,
    }),
    "renewal reminder": renewalReminderMail(site, to, {
      domain: "shop.example.in",
      headline: "expires in 7 days, on 2 December 2026",
      opening: "The hosting of shop.example.in expires in 7 days, on 2 December 2026. Renew before then to keep the website online without a break.",
      renewUrl: `${url}/account/services/websites/9a2b/renew`,
    }),
    "refund requested": refundRequestedMail(site, to, {
      orderNumber: "ACD-000042",
      courseTitle: "UI/UX Design for Developers",
      amount: "₹2,999",
      ordersUrl: `${url}/account/orders`,
      consequence: "Your access to the course has ended.",
      requestedBy: "buyer",
    }),
    "refund decided by us": refundRequestedMail(site, to, {
      orderNumber: "ACD-000043",
      courseTitle: "Hosting for shop.example.in",
      amount: "₹1,999",
      ordersUrl: `${url}/account/orders`,
      consequence: "",
      requestedBy: "us",
    }),
    "refund processed": refundProcessedMail(site, to, {
      orderNumber: "ACD-000042",
      courseTitle: "UI/UX Design for Developers",
      amount: "₹2,999",
      refundId: "rfnd_Xyz789",
      ordersUrl: `${url}/account/orders`,
    }),
  };
}

const entities = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code))).replace(/&amp;/g, "&");
/** The words of an HTML fragment as a reader sees them. */
const words = (html: string) => entities(html.replace(/<br>/g, " ").replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => entities(m[1] as string));
const amounts = (text: string) => text.match(/₹[\d,]+(\.\d+)?/g) ?? [];

describe.each(Object.entries(everyMail("Asha Verma")))("the %s mail", (_, mail) => {
  it("has a subject, an HTML part and a plain-text part", () => {
    expect(mail.subject.length).toBeGreaterThan(10);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.text.length).toBeGreaterThan(100);
  });

  it("writes out in the text every link of the HTML, and lists them with the button's first", () => {
    const links = hrefs(mail.html);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(mail.text).toContain(link);
    expect(new Set(links)).toEqual(new Set(mail.links));
    expect(links[0]).toBe(mail.links[0]);
  });

  it("says in the text every sentence and amount of the HTML", () => {
    const body = mail.text.replace(/\s+/g, " ");
    const sentences = [...mail.html.matchAll(/<p class="mail-text[^"]*"[^>]*>(.*?)<\/p>/g)].map((m) => words(m[1] as string));
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    for (const sentence of sentences) expect(body).toContain(sentence);
    for (const amount of amounts(words(mail.html))) expect(mail.text).toContain(amount);
    expect(body).toContain(words(`${site.legalName} · ${site.address.city}, ${site.address.state} · ${site.email}`));
  });

  it("is one column at most 600 px wide, with 16 px text and a large button", () => {
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).toContain("max-width:600px");
    expect(mail.html).toMatch(/<p class="mail-text"[^>]*font-size:16px/);
    // 14 px above and below a 20 px line: a 48 px tap target.
    expect(mail.html).toMatch(/<a href="[^"]+" style="display:inline-block;padding:14px 28px;font-size:16px;line-height:20px/);
    expect(mail.html).not.toMatch(/<div/);
  });

  it("declares both colour schemes and gives every coloured text a dark-mode colour", () => {
    expect(mail.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(mail.html).toContain('<meta name="supported-color-schemes" content="light dark">');
    expect(mail.html).toMatch(/@media \(prefers-color-scheme: dark\)\{.*\.mail-text\{color:#e2e8f0 !important\}/);
    // Text in a fixed colour must be white on the brand colour (the same in both schemes) or carry a class the dark styles recolour.
    for (const [, tag] of mail.html.matchAll(/<((?:p|td|a)\b[^>]*style="[^"]*(?<![-\w])color:[^"]*"[^>]*)>/g)) {
      const white = /(?<![-\w])color:#ffffff/.test(tag as string);
      expect(white || /class="[^"]*mail-(text|muted|link)/.test(tag as string), tag).toBe(true);
    }
  });
});

describe("every mail", () => {
  it("escapes what a person typed in the HTML and keeps it readable in the text", () => {
    const name = `<script>alert("x")</script> & <b>Asha</b>`;
    for (const mail of Object.values(everyMail(name))) {
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).not.toContain("<b>");
      expect(mail.html).toContain("Hi &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;b&#62;Asha&#60;/b&#62;,");
      expect(mail.text).toContain(`Hi ${name},`);
    }
  });

  it("puts the receipt's amounts in a table with a caption, each row headed by its label, and line by line in the text", () => {
    const mail = receiptMail(site, { email: "asha@example.com", name: "Asha" }, { ...receipt, courseTitle: "UI/UX Design for Developers", courseUrl: `${url}/courses/ui-ux-design` });
    const table = /<table width="100%"[^>]*><caption[^>]*>Amounts on invoice ACD-000042<\/caption>(.*?)<\/table>/.exec(mail.html)?.[1] ?? "";
    const rows = [...table.matchAll(/<tr><th scope="row"[^>]*>(.*?)<\/th><td[^>]*>(.*?)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([...receipt.amounts.rows, receipt.amounts.total]);
    expect(mail.text).toContain(
      [
        "Amounts on invoice ACD-000042:",
        "UI/UX Design for Developers  ₹2,795.76",
        "Discount (coupon WELCOME10)   -₹254.24",
        "Taxable value                ₹2,541.52",
        "CGST @ 9%                      ₹228.74",
        "SGST @ 9%                      ₹228.74",
        "--------------------------------------",
        "Total paid                   ₹2,999.00",
      ].join("\n"),
    );
  });

  it("greets someone with no name without an empty name", () => {
    const mail = verificationMail(site, { email: "asha@example.com", name: "  " }, `${url}/verify`);
    expect(mail.text.startsWith("Hello,\n")).toBe(true);
  });
});

import { escapeHtml } from "../escape-html.ts";
import { formatMoment } from "../../common/format.ts";
import type { Site } from "../catalog/index.ts";
import type { MailMessage } from "./outbox.ts";

interface Link {
  label: string;
  url: string;
}

/** Amounts a mail states, a label and a formatted amount a line, under a caption, the total last. */
export interface AmountsTable {
  caption: string;
  rows: [string, string][];
  total: [string, string];
}

interface Letter {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Shown after the paragraphs, before the button. */
  amounts?: AmountsTable | undefined;
  /** The one thing the mail asks the reader to do: a large button (its link is the mail's first). */
  action: Link;
  /** Further places the mail points to, each named, after the button. */
  links?: Link[];
  closing: string;
}

/**
 * The brand's colours (app/app.css, brand-600/700/300 and the slate greys) as mail clients need
 * them: hex, inline, with dark-mode overrides in a <style> block for the clients that read one.
 */
const colour = {
  brand: "#2653d8",
  brandText: "#1a40b6",
  brandTextDark: "#95b6fe",
  page: "#f1f5f9",
  pageDark: "#020617",
  card: "#ffffff",
  cardDark: "#0f172a",
  text: "#1e293b",
  textDark: "#e2e8f0",
  muted: "#475569",
  mutedDark: "#94a3b8",
  rule: "#e2e8f0",
  ruleDark: "#1e293b",
};

const font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif";

/** Overrides for dark mode: prefers-color-scheme for Apple Mail and others, [data-ogsc]/[data-ogsb] for Outlook's own. */
function darkStyles(): string {
  const rules = [
    `.mail-page{background-color:${colour.pageDark} !important}`,
    `.mail-card{background-color:${colour.cardDark} !important;border-color:${colour.ruleDark} !important}`,
    `.mail-text{color:${colour.textDark} !important}`,
    `.mail-muted{color:${colour.mutedDark} !important}`,
    `.mail-link{color:${colour.brandTextDark} !important}`,
    `.mail-rule{border-color:${colour.ruleDark} !important}`,
  ];
  return `:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme: dark){${rules.join("")}}
${rules.map((rule) => `[data-ogsc] ${rule}`).join("\n")}`;
}

const paragraph = (p: string) => `<p class="mail-text" style="margin:0 0 16px;font-size:16px;line-height:26px;color:${colour.text}">${escapeHtml(p)}</p>`;

const amountCell = (tag: "th" | "td", content: string, total: boolean) => {
  const align = tag === "th" ? `text-align:left;padding:${total ? "12px" : "8px"} 12px 8px 0` : `text-align:right;white-space:nowrap;padding:${total ? "12px" : "8px"} 0 8px`;
  const scope = tag === "th" ? ' scope="row"' : "";
  return `<${tag}${scope} class="mail-text${total ? "" : " mail-rule"}" style="${align};font-size:15px;line-height:22px;font-weight:${total ? 700 : 400};color:${colour.text};${total ? "" : `border-bottom:1px solid ${colour.rule};`}font-family:${font}">${escapeHtml(content)}</${tag}>`;
};

/** A real table (not a layout one): read row by row, each row's label its header. */
const amountsTable = (amounts: AmountsTable) =>
  `<table width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 24px;border-collapse:collapse">` +
  `<caption class="mail-text" style="text-align:left;padding:0 0 4px;font-size:16px;line-height:26px;font-weight:600;color:${colour.text};font-family:${font}">${escapeHtml(amounts.caption)}</caption>` +
  amounts.rows.map(([label, amount]) => `<tr>${amountCell("th", label, false)}${amountCell("td", amount, false)}</tr>`).join("") +
  `<tr>${amountCell("th", amounts.total[0], true)}${amountCell("td", amounts.total[1], true)}</tr></table>`;

/** The same table in plain text: labels padded, amounts right-aligned, for clients with a fixed-width font. */
function amountsText(amounts: AmountsTable): string[] {
  const lines = [...amounts.rows, amounts.total];
  const labelWidth = Math.max(...lines.map(([label]) => label.length));
  const amountWidth = Math.max(...lines.map(([, amount]) => amount.length));
  const line = ([label, amount]: [string, string]) => `${label.padEnd(labelWidth)}  ${amount.padStart(amountWidth)}`;
  return [`${amounts.caption}:`, ...amounts.rows.map(line), "-".repeat(labelWidth + 2 + amountWidth), line(amounts.total), ""];
}

const button = (action: Link) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:999px;background-color:${colour.brand}">` +
  `<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:14px 28px;font-size:16px;line-height:20px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:999px;font-family:${font}">${escapeHtml(action.label)}</a>` +
  `</td></tr></table>`;

const namedLink = (link: Link) =>
  `<p class="mail-text" style="margin:0 0 16px;font-size:16px;line-height:26px;color:${colour.text}"><a class="mail-link" href="${escapeHtml(link.url)}" style="color:${colour.brandText};font-weight:600;text-decoration:underline">${escapeHtml(link.label)}</a></p>`;

/**
 * The one layout every mail uses: one column at most 600 px wide, a table with inline styles (what
 * mail clients render), 16 px text, a large button, and colours that hold in light and dark
 * clients. The plain-text part says the same things in the same order, with every link written out.
 */
function compose(site: Site, letter: Letter): MailMessage {
  const { action } = letter;
  const links = letter.links ?? [];
  const footer = `${site.legalName} · ${site.address.city}, ${site.address.state} · ${site.email}`;
  const text = [
    letter.greeting,
    "",
    ...letter.paragraphs.flatMap((p) => [p, ""]),
    ...(letter.amounts ? amountsText(letter.amounts) : []),
    `${action.label}: ${action.url}`,
    ...links.map((link) => `${link.label}: ${link.url}`),
    "",
    letter.closing,
    "",
    `— ${site.name}`,
    footer,
  ].join("\n");
  const html = `<!doctype html>
<html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(letter.subject)}</title>
<style>${darkStyles()}</style></head>
<body class="mail-page" style="margin:0;padding:0;background-color:${colour.page};font-family:${font};-webkit-text-size-adjust:100%">
<table role="presentation" class="mail-page" width="100%" cellpadding="0" cellspacing="0" style="background-color:${colour.page}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px">
<tr><td style="padding:0 4px 16px">
<table role="presentation" cellpadding="0" cellspacing="0"><tr>
<td style="width:32px;height:32px;border-radius:8px;background-color:${colour.brand};color:#ffffff;font-size:16px;font-weight:700;text-align:center;vertical-align:middle;font-family:${font}">${escapeHtml(site.name.slice(0, 1))}</td>
<td class="mail-text" style="padding-left:10px;font-size:20px;font-weight:700;color:${colour.text};font-family:${font}">${escapeHtml(site.name)}</td>
</tr></table>
</td></tr>
<tr><td class="mail-card" style="background-color:${colour.card};border:1px solid ${colour.rule};border-radius:16px;padding:32px 24px;font-family:${font}">
${paragraph(letter.greeting)}
${letter.paragraphs.map(paragraph).join("\n")}
${letter.amounts ? amountsTable(letter.amounts) : ""}
${button(action)}
${links.map(namedLink).join("\n")}
<p class="mail-muted" style="margin:0 0 16px;font-size:14px;line-height:22px;color:${colour.muted}">If the button does not work, copy this link into your browser:<br><a class="mail-link" href="${escapeHtml(action.url)}" style="color:${colour.brandText};word-break:break-all">${escapeHtml(action.url)}</a></p>
<p class="mail-text mail-rule" style="margin:24px 0 0;padding-top:16px;border-top:1px solid ${colour.rule};font-size:16px;line-height:26px;color:${colour.text}">${escapeHtml(letter.closing)}</p>
</td></tr>
<tr><td class="mail-muted" style="padding:16px 4px;font-size:13px;line-height:20px;color:${colour.muted};font-family:${font}">— ${escapeHtml(site.name)}<br>${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  return { to: letter.to, subject: letter.subject, text, html, links: [action.url, ...links.map((link) => link.url)] };
}

const greet = (name: string) => (name.trim() ? `Hi ${name.trim()},` : "Hello,");

export function verificationMail(site: Site, to: { email: string; name: string }, url: string): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Confirm your e-mail address for ${site.name}`,
    greeting: greet(to.name),
    paragraphs: [
      `Thanks for creating an account with ${site.name}. Please confirm that ${to.email} is your e-mail address.`,
      "The link works for 24 hours.",
    ],
    action: { label: "Confirm my e-mail address", url },
    closing: "If you did not create an account, you can ignore this mail; nothing happens until the address is confirmed.",
  });
}

export function passwordResetMail(site: Site, to: { email: string; name: string }, url: string): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Reset your ${site.name} password`,
    greeting: greet(to.name),
    paragraphs: [
      "Someone asked to reset the password of your account. If it was you, choose a new password with the link below.",
      "The link works for one hour. When you set a new password, every other device signed in to your account is signed out.",
    ],
    action: { label: "Choose a new password", url },
    closing: "If you did not ask for this, ignore this mail: your password stays as it is.",
  });
}

/** How a password was changed, in the words of the mail that tells of it. */
export const passwordChangeWays = {
  settings: "from your account settings",
  reset: "with a password reset link",
} as const;

/** Tells the owner that the password changed, so someone else changing it does not go unnoticed. */
export function passwordChangedMail(
  site: Site,
  to: { email: string; name: string },
  facts: { changedAt: Date; way: keyof typeof passwordChangeWays; forgotPasswordUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Your ${site.name} password was changed`,
    greeting: greet(to.name),
    paragraphs: [
      `The password of your ${site.name} account (${to.email}) was changed on ${formatMoment(facts.changedAt)} India time, ${passwordChangeWays[facts.way]}. If this was you, there is nothing more to do.`,
      "If this was not you, reset your password now: someone else may know your password or be able to read your mail. Resetting it signs out every device signed in to your account.",
    ],
    action: { label: "Reset my password", url: facts.forgotPasswordUrl },
    closing: `Need help? Reply to this mail, write to ${site.email} or call ${site.phone}.`,
  });
}

export interface ReceiptFacts {
  orderNumber: string;
  courseTitle: string;
  amount: string;
  /** What the invoice states, line by line. */
  amounts: AmountsTable;
  paymentId: string;
  paidOn: string;
  receiptUrl: string;
  courseUrl: string;
}

export function receiptMail(site: Site, to: { email: string; name: string }, facts: ReceiptFacts): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Your receipt for ${facts.courseTitle} (order ${facts.orderNumber})`,
    greeting: greet(to.name),
    paragraphs: [
      `Thank you for your purchase. Your payment of ${facts.amount} for "${facts.courseTitle}" was received on ${facts.paidOn}, and the course is now in your account.`,
      `Order ${facts.orderNumber} · payment ${facts.paymentId}.`,
    ],
    amounts: facts.amounts,
    action: { label: "Start learning", url: facts.courseUrl },
    links: [{ label: "Your receipt and GST invoice", url: facts.receiptUrl }],
    closing: `Changed your mind? You can ask for a refund from your orders page within ${site.refund.windowDays} days, as long as you have completed less than ${site.refund.maxProgressPercent}% of the course.`,
  });
}

/** The receipt for a paid hosting period: what it paid for and until when. */
export function hostingReceiptMail(
  site: Site,
  to: { email: string; name: string },
  facts: Omit<ReceiptFacts, "courseTitle" | "courseUrl"> & { title: string; domain: string; until: string; websiteUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Your receipt for ${facts.title} (order ${facts.orderNumber})`,
    greeting: greet(to.name),
    paragraphs: [
      `Thank you. Your payment of ${facts.amount} for "${facts.title}" was received on ${facts.paidOn}, and ${facts.domain} is now hosted until ${facts.until}.`,
      `Order ${facts.orderNumber} · payment ${facts.paymentId}.`,
    ],
    amounts: facts.amounts,
    action: { label: "See your website", url: facts.websiteUrl },
    links: [{ label: "Your receipt and GST invoice", url: facts.receiptUrl }],
    closing: "We will write before the next renewal is due. Questions about your site? Reply to this mail.",
  });
}

/** Why a paid hosting order could not start or extend its website. */
export type HostingNotStarted = "domain-taken" | "plan-withdrawn" | "website-gone" | "website-cancelled" | "website-refunded";

/** Why, in words the buyer reads in the mail and on the page they return to. */
export const hostingNotStartedReasons: Record<HostingNotStarted, (domain: string) => string> = {
  "domain-taken": (domain) => `another customer's website went live on ${domain} while you were paying, so we could not start hosting it for you`,
  "plan-withdrawn": () => "the plan you chose was withdrawn while you were paying, so we could not apply it",
  "website-gone": () => "the website it was for no longer exists, so there was nothing to apply it to",
  "website-cancelled": (domain) => `you cancelled ${domain} before this payment arrived, so there was nothing to renew`,
  "website-refunded": (domain) => `you asked for a refund of ${domain}'s first period, which ends its hosting, so there was nothing left to renew`,
};

/** A hosting payment that bought nothing, and the full refund that follows. */
export function hostingNotStartedMail(
  site: Site,
  to: { email: string; name: string },
  facts: Pick<ReceiptFacts, "orderNumber" | "amount" | "paidOn"> & { title: string; domain: string; reason: HostingNotStarted; ordersUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `We could not apply your payment for ${facts.domain}: it is being refunded`,
    greeting: greet(to.name),
    paragraphs: [
      `We received your payment of ${facts.amount} for "${facts.title}" on ${facts.paidOn} (order ${facts.orderNumber}), but ${hostingNotStartedReasons[facts.reason](facts.domain)}.`,
      `We are refunding the ${facts.amount} in full; nothing is deducted. The money goes back to the account or card you paid with, and banks usually take 5 to 7 working days to show it. We will write again when the refund has been processed.`,
    ],
    action: { label: "See your orders", url: facts.ordersUrl },
    closing: "Questions? Reply to this mail and we will sort it out with you.",
  });
}

/** A renewal reminder: when the hosting expires (or that the site stopped), and the one click that renews it. */
export function renewalReminderMail(
  site: Site,
  to: { email: string; name: string },
  facts: { domain: string; headline: string; opening: string; renewUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.domain}: ${facts.headline}`,
    greeting: greet(to.name),
    paragraphs: [facts.opening, "Renewing takes a minute: choose monthly or yearly, see the new expiry date, and pay."],
    action: { label: `Renew ${facts.domain}`, url: facts.renewUrl },
    closing: "Letting this website go? Cancel it from its page in your account and these reminders stop.",
  });
}

/** The company gave the learner a course: no payment, so no receipt, and where to start. */
export function courseGivenMail(site: Site, to: { email: string; name: string }, facts: { courseTitle: string; courseUrl: string }): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.courseTitle} is in your account`,
    greeting: greet(to.name),
    paragraphs: [`We have added "${facts.courseTitle}" to your account, free of charge: there is nothing to pay and no invoice. It is yours to learn at your own pace.`],
    action: { label: "Start learning", url: facts.courseUrl },
    closing: "Questions about it? Reply to this mail and we will help.",
  });
}

/** Staff took a website offline: why, what it means, and where to answer. */
export function websiteSuspendedMail(site: Site, to: { email: string; name: string }, facts: { domain: string; reason: string; url: string }): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.domain} is suspended`,
    greeting: greet(to.name),
    paragraphs: [
      `We have suspended ${facts.domain}: it is offline until we resume it. Our reason: ${facts.reason}`,
      "Your files and the time you paid for are kept; the period runs on as before.",
    ],
    action: { label: `See ${facts.domain}`, url: facts.url },
    closing: "Think this is a mistake, or fixed the cause? Reply to this mail and we will look at it with you.",
  });
}

/** Staff cancelled a website for its owner: what still runs, and that nothing renews. */
export function websiteCancelledMail(site: Site, to: { email: string; name: string }, facts: { domain: string; runsUntil: string | null; url: string }): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.domain} is cancelled`,
    greeting: greet(to.name),
    paragraphs: [
      `As agreed with you, we have cancelled the hosting of ${facts.domain}. ${facts.runsUntil ? `It stays online until ${facts.runsUntil}, the end of the time you paid for; ` : ""}there will be no more reminders and no renewals.`,
    ],
    action: { label: `See ${facts.domain}`, url: facts.url },
    closing: "Did not ask for this? Reply to this mail at once and we will look into it.",
  });
}

/** Staff put a suspended website back online. */
export function websiteResumedMail(site: Site, to: { email: string; name: string }, facts: { domain: string; reason: string; url: string }): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.domain} is online again`,
    greeting: greet(to.name),
    paragraphs: [`We have resumed ${facts.domain}: it is online again. ${facts.reason}`],
    action: { label: `See ${facts.domain}`, url: facts.url },
    closing: "Questions? Reply to this mail and we will sort it out with you.",
  });
}

export function refundRequestedMail(
  site: Site,
  to: { email: string; name: string },
  facts: { orderNumber: string; courseTitle: string; amount: string; ordersUrl: string; consequence: string; requestedBy: "buyer" | "us" },
): MailMessage {
  const ours = facts.requestedBy === "us";
  return compose(site, {
    to: to.email,
    subject: ours ? `We are refunding order ${facts.orderNumber}` : `We have received your refund request for order ${facts.orderNumber}`,
    greeting: greet(to.name),
    paragraphs: [
      `We are refunding ${facts.amount} for "${facts.courseTitle}" (order ${facts.orderNumber}).${facts.consequence ? ` ${facts.consequence}` : ""}`,
      "The money goes back to the account or card you paid with. Banks usually take 5 to 7 working days to show it; we will write again when the refund has been processed.",
    ],
    action: { label: "See your orders", url: facts.ordersUrl },
    closing: ours ? "If you have questions about this refund, reply to this mail." : "If you did not ask for this refund, reply to this mail at once.",
  });
}

export function refundProcessedMail(
  site: Site,
  to: { email: string; name: string },
  facts: { orderNumber: string; courseTitle: string; amount: string; refundId: string; ordersUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `Your refund of ${facts.amount} has been processed`,
    greeting: greet(to.name),
    paragraphs: [
      `The refund of ${facts.amount} for "${facts.courseTitle}" (order ${facts.orderNumber}) has been processed. Refund reference: ${facts.refundId}.`,
      "Depending on your bank it can take a few working days to appear on your statement.",
    ],
    action: { label: "See your orders", url: facts.ordersUrl },
    closing: "We are sorry the course was not right for you. Your feedback helps us improve; you can reply to this mail.",
  });
}

import { escapeHtml } from "../escape-html.ts";
import type { Site } from "../catalog/index.ts";
import type { MailMessage } from "./outbox.ts";

interface Letter {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  closing: string;
}

const paragraph = (p: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#334155">${escapeHtml(p)}</p>`;

/** One branded layout for every mail: HTML with inline styles, and the same words as plain text. */
function compose(site: Site, letter: Letter): MailMessage {
  const { action } = letter;
  const footer = `${site.legalName} · ${site.address.city}, ${site.address.state} · ${site.email}`;
  const text = [
    letter.greeting,
    "",
    ...letter.paragraphs.flatMap((p) => [p, ""]),
    `${action.label}: ${action.url}`,
    "",
    letter.closing,
    "",
    `— ${site.name}`,
    footer,
  ].join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(letter.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#4338ca;padding:20px 28px;font-size:20px;font-weight:700;color:#ffffff">${escapeHtml(site.name)}</td></tr>
<tr><td style="padding:28px">
${paragraph(letter.greeting)}
${letter.paragraphs.map(paragraph).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:999px">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:#475569">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#4338ca;word-break:break-all">${escapeHtml(action.url)}</a></p>
${paragraph(letter.closing)}
</td></tr>
<tr><td style="padding:16px 28px;background:#f8fafc;font-size:12px;line-height:18px;color:#64748b">${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  return { to: letter.to, subject: letter.subject, text, html, links: [action.url] };
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

export interface ReceiptFacts {
  orderNumber: string;
  courseTitle: string;
  amount: string;
  tax: string;
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
      `Order ${facts.orderNumber} · payment ${facts.paymentId} · ${facts.tax}.`,
      `Your receipt and GST invoice are at ${facts.receiptUrl}.`,
    ],
    action: { label: "Start learning", url: facts.courseUrl },
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
      `Order ${facts.orderNumber} · payment ${facts.paymentId} · ${facts.tax}.`,
      `Your receipt and GST invoice are at ${facts.receiptUrl}.`,
    ],
    action: { label: "See your website", url: facts.websiteUrl },
    closing: "We will write before the next renewal is due. Questions about your site? Reply to this mail.",
  });
}

/** Why a paid hosting order could not start or extend its website. */
export type HostingNotStarted = "domain-taken" | "plan-withdrawn" | "website-gone";

/** Why, in words the buyer reads in the mail and on the page they return to. */
export const hostingNotStartedReasons: Record<HostingNotStarted, (domain: string) => string> = {
  "domain-taken": (domain) => `another customer's website went live on ${domain} while you were paying, so we could not start hosting it for you`,
  "plan-withdrawn": () => "the plan you chose was withdrawn while you were paying, so we could not apply it",
  "website-gone": () => "the website it was for no longer exists, so there was nothing to apply it to",
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

/** A renewal reminder: how long is left (or that the site stopped), and the one click that renews it. */
export function renewalReminderMail(
  site: Site,
  to: { email: string; name: string },
  facts: { domain: string; headline: string; detail: string; renewUrl: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `${facts.domain}: ${facts.headline}`,
    greeting: greet(to.name),
    paragraphs: [`${facts.headline} for ${facts.domain}. ${facts.detail}`, "Renewing takes a minute: choose monthly or yearly, see the new expiry date, and pay."],
    action: { label: `Renew ${facts.domain}`, url: facts.renewUrl },
    closing: "Letting this website go? Cancel it from its page in your account and these reminders stop.",
  });
}

export function refundRequestedMail(
  site: Site,
  to: { email: string; name: string },
  facts: { orderNumber: string; courseTitle: string; amount: string; ordersUrl: string; consequence: string },
): MailMessage {
  return compose(site, {
    to: to.email,
    subject: `We have received your refund request for order ${facts.orderNumber}`,
    greeting: greet(to.name),
    paragraphs: [
      `We are refunding ${facts.amount} for "${facts.courseTitle}" (order ${facts.orderNumber}). ${facts.consequence}`,
      "The money goes back to the account or card you paid with. Banks usually take 5 to 7 working days to show it; we will write again when the refund has been processed.",
    ],
    action: { label: "See your orders", url: facts.ordersUrl },
    closing: "If you did not ask for this refund, reply to this mail at once.",
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

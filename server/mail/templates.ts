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

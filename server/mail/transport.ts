import { createTransport } from "nodemailer";
import type { MailTransport } from "./outbox.ts";

/**
 * SMTP (nodemailer) when SMTP_URL is set; otherwise the outbox transport, which leaves the mail in
 * the database for the development mailbox at /dev/mailbox.
 */
export function createMailTransport(options: { smtpUrl: string | undefined; from: string }): MailTransport {
  if (!options.smtpUrl) {
    return { kind: "outbox", send: async () => {}, close: () => {} };
  }
  // Bounded, so one send always ends well inside the claim on its mail (outbox.ts, mailLeaseSeconds).
  const smtp = createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    kind: "smtp",
    async send(message) {
      await smtp.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
    close: () => smtp.close(),
  };
}

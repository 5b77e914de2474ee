// An SMTP server that keeps what it receives, for tests of the production configuration (where
// there is no development mailbox): the app sends real SMTP to it, and tests read the messages as
// JSON at GET /mail.json?to=ADDRESS, newest first, in the development mailbox's shape. A recipient
// whose address starts with "refused" is refused (550), as a real server refuses an unknown mailbox.
import { createServer } from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

interface Received {
  to: string[];
  subject: string;
  text: string;
  links: string[];
  createdAt: string;
}

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT ?? 4325);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT ?? 4326);
const received: Received[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onRcptTo(address, _session, callback) {
    if (!address.address.toLowerCase().startsWith("refused")) return callback();
    callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: mailbox unavailable`), { responseCode: 550 }));
  },
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const text = mail.text ?? "";
        received.unshift({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: mail.subject ?? "",
          text,
          links: text.match(/https?:\/\/[^\s)>\]]+/g) ?? [],
          createdAt: new Date().toISOString(),
        });
        callback();
      })
      .catch((error: Error) => callback(error));
  },
});

const http = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://mail-sink.invalid");
  if (url.pathname !== "/mail.json") {
    response.writeHead(404).end();
    return;
  }
  const to = url.searchParams.get("to")?.toLowerCase();
  const mails = received.filter((m) => !to || m.to.includes(to)).map(({ to: rcpt, ...rest }) => ({ to: rcpt.join(", "), ...rest }));
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(mails));
});

smtp.listen(smtpPort, "127.0.0.1");
http.listen(httpPort, "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    smtp.close(() => http.close(() => process.exit(0)));
  });
}

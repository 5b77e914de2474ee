// "View and download (PDF)": the holder gets a real PDF file of their certificate, drawn on the server
// from the same face as its page; its text is read back here. Nobody else gets the file: the page
// stays public, the PDF is the holder's. A name the PDF's font cannot draw is sent to the page.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { certificates, user } from "../../server/db/schema.ts";
import { certificatePdfsPerHour, newCertificateId } from "../../server/learning/certificates.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

const origin = "http://academy.test";

function send(path: string, cookie?: string) {
  const headers = new Headers({ [clientIpHeader]: `10.6.${randomBytes(2).join(".")}`, accept: "text/html,application/pdf" });
  if (cookie) headers.set("cookie", cookie);
  return t.app.fetch(new Request(`${origin}${path}`, { headers, redirect: "manual" }));
}

/** A verified account, its session cookie and a certificate of React from Fundamentals to Production in `name`. */
async function holder(name: string, revokedAt: Date | null = null): Promise<{ cookie: string; certificateId: string }> {
  const email = `pdf-${randomBytes(4).toString("hex")}@example.com`;
  const response = await t.identity.auth.api.signUpEmail({ body: { name: "Certificate Holder", email, password: "a good long password" }, asResponse: true });
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  const certificateId = newCertificateId();
  await t.database.db.insert(certificates).values({
    id: certificateId,
    userId: created.id,
    courseId: "react-fundamentals",
    courseTitle: "React from Fundamentals to Production",
    learnerName: t.identity.cipher.encrypt(name),
    issuedAt: new Date("2026-11-22T10:00:00+05:30"),
    revokedAt,
  });
  return { cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), certificateId };
}

async function pdfText(response: Response): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  return (await extractText(pdf, { mergePages: true })).text;
}

describe("the certificate as a PDF", () => {
  it("is a PDF file of the holder's certificate: name, course, date, ID and where to verify it", async () => {
    const { cookie, certificateId } = await holder("Łukasz Żółć");
    const response = await send(`/certificates/${certificateId}/pdf`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="certificate-react-from-fundamentals-to-production-${certificateId}.pdf"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const text = await pdfText(response.clone());
    expect(new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    for (const shown of ["Certificate of completion", "Łukasz Żółć", "React from Fundamentals to Production", "22 November 2026", certificateId, `${origin}/certificates/${certificateId}`]) {
      expect(text).toContain(shown);
    }
  });

  it("draws a name in Greek or Cyrillic as it is written", async () => {
    const { cookie, certificateId } = await holder("Анна Σοφία");
    expect(await pdfText(await send(`/certificates/${certificateId}/pdf`, cookie))).toContain("Анна Σοφία");
  });

  it("is refused to anyone but the holder, while the certificate's page stays public", async () => {
    const { certificateId } = await holder("Meera Pillai");
    const stranger = await holder("Someone Else");
    const refused = await send(`/certificates/${certificateId}/pdf`, stranger.cookie);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await refused.text()).toBe("Only the person this certificate was issued to can download it as a PDF. Anyone with its ID can see and check it on its page.");
    const signedOut = await send(`/certificates/${certificateId}/pdf`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/certificates/${certificateId}/pdf`)}`);
    const page = await send(`/certificates/${certificateId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Meera Pillai");
    expect(html).not.toContain(`/certificates/${certificateId}/pdf`);
    expect((await send(`/certificates/${newCertificateId()}/pdf`, stranger.cookie)).status).toBe(404);
  });

  it("is not made of a revoked certificate", async () => {
    const { cookie, certificateId } = await holder("Kiran Das", new Date("2026-11-24T10:00:00+05:30"));
    const gone = await send(`/certificates/${certificateId}/pdf`, cookie);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toBe(`Certificate ${certificateId} was revoked on 24 November 2026, when the course was refunded, so there is no PDF of it.`);
  });

  it("is drawn for one person at most 20 times an hour, as each takes a core for tens of milliseconds; others and the page are unaffected", async () => {
    const { cookie, certificateId } = await holder("Vikram Seth");
    expect(certificatePdfsPerHour).toBe(20);
    for (let i = 0; i < certificatePdfsPerHour; i++) expect((await send(`/certificates/${certificateId}/pdf`, cookie)).status).toBe(200);
    const refused = await send(`/certificates/${certificateId}/pdf`, cookie);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/^You have downloaded certificates as PDF 20 times in the last hour, the most we allow\. Their pages can still be printed\. Try again in \d+ minutes\.$/);
    expect((await send(`/certificates/${certificateId}`, cookie)).status).toBe(200);

    const other = await holder("Vikram Seth");
    expect((await send(`/certificates/${other.certificateId}/pdf`, other.cookie)).status).toBe(200);
    // Someone else's certificate is refused for what it is, whatever the count.
    expect((await send(`/certificates/${other.certificateId}/pdf`, cookie)).status).toBe(403);
  });

  it("offers the holder the download on the page, or says which letters it cannot draw and sends them to print", async () => {
    const latin = await holder("Meera Pillai");
    expect(await (await send(`/certificates/${latin.certificateId}`, latin.cookie)).text()).toContain(`href="/certificates/${latin.certificateId}/pdf"`);

    const { cookie, certificateId } = await holder("अनन्या शर्मा");
    const sent = await send(`/certificates/${certificateId}/pdf`, cookie);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/certificates/${certificateId}`);
    const html = (await (await send(`/certificates/${certificateId}`, cookie)).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("We cannot make a PDF file of this certificate: our PDF font has no letters for अ न ् य ा श र म.");
    expect(html).not.toContain(`href="/certificates/${certificateId}/pdf"`);
  });
});

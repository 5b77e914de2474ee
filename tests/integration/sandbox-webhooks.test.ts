import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Catalog } from "../../server/catalog/index.ts";
import { createOrder } from "../../server/commerce/index.ts";
import { sandboxWebhooks } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import { startSandboxWebhooks, type SandboxGateway } from "../../server/payments/sandbox.ts";
import { catalogWithFreeCourse, databaseKinds, identitySuite, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithFreeCourse();
});

describe.each(databaseKinds)("the sandbox's webhook worker on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  /** A worker whose deliveries are recorded, answered 200, and the gateway's looks counted. */
  function startRecording(idleMs: number) {
    const payments = startTestPayments(suite.db, catalog, suite.identity);
    const sandbox = payments.sandbox as SandboxGateway;
    const looks = vi.spyOn(sandbox, "deliverDueWebhooks");
    const arrived: { event: string; at: number }[] = [];
    const worker = startSandboxWebhooks({
      gateway: sandbox,
      deliver: async (request) => {
        const { event } = (await request.json()) as { event: string };
        arrived.push({ event, at: Date.now() });
        return new Response("OK");
      },
      webhookUrl: "http://academy.test/api/payments/webhook",
      logger: createLogger("silent"),
      idleMs,
    });
    return { payments, sandbox, looks, arrived, worker };
  }

  it("delivers each webhook as it falls due, woken by the payment that queued it, and asks nothing in between", async () => {
    const { payments, sandbox, looks, arrived, worker } = startRecording(60_000);
    try {
      const { id } = await suite.signUp();
      const order = await createOrder(payments.shop, { userId: id, courseId: "react-fundamentals", idempotencyKey: randomBytes(12).toString("hex") });
      const paidAt = Date.now();
      await sandbox.pay(order.providerOrderId as string, { outcome: "pay", method: "upi" });

      await vi.waitFor(() => expect(arrived.map((a) => a.event)).toContain("order.paid"), { timeout: 10_000, interval: 50 });
      expect(arrived.map((a) => a.event)).toEqual(["payment.captured", "payment.captured", "payment.authorized", "order.paid"]);
      // Not before it is due (the captured event is planned 300 ms after the payment, order.paid 3 s).
      expect((arrived[0]?.at ?? 0) - paidAt).toBeGreaterThanOrEqual(250);
      expect((arrived[3]?.at ?? 0) - paidAt).toBeGreaterThanOrEqual(2950);
      // Start, the payment's wake-up and one look per moment due: a worker polling every 250 ms would have looked 12 times or more.
      expect(looks.mock.calls.length).toBeLessThanOrEqual(10);
    } finally {
      await worker.stop();
    }
  });

  it("finds, at its idle look, a webhook queued where it was not woken", async () => {
    const { arrived, worker } = startRecording(300);
    try {
      await suite.db.insert(sandboxWebhooks).values({ eventId: "evt_elsewhere00001", event: "payment.captured", body: JSON.stringify({ event: "payment.captured" }), deliverAt: new Date() });
      await vi.waitFor(() => expect(arrived.map((a) => a.event)).toEqual(["payment.captured"]), { timeout: 5_000, interval: 50 });
    } finally {
      await worker.stop();
    }
  });
});

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ReceiptView } from "../../common/view-types.ts";
import { ReceiptDocument } from "./receipt-document.tsx";

const paidAt = new Date("2026-11-25T10:00:00+05:30");
const invoice: ReceiptView = {
  id: "7f1c",
  number: "ACD-000042",
  paid: true,
  status: "paid",
  courseId: "react-fundamentals",
  kind: "course",
  payPath: "/courses/react-fundamentals/confirm",
  title: "React from Fundamentals to Production",
  createdAt: paidAt,
  paidAt,
  amount: 559_920,
  taxableAmount: 474_508,
  taxAmount: 85_412,
  discount: { code: "TWENTY", amount: 118_628 },
  taxRatePercent: 18,
  taxMode: "inclusive",
  cgst: 42_706,
  sgst: 42_706,
  igst: 0,
  buyer: { name: "Ishaan Mehta", email: "ishaan@example.com", gstin: null },
  seller: { legalName: "Academy Learning", addressLines: ["Bengaluru"], gstin: "29ABCDE1234F1Z5", email: "support@academy.example", phone: "+91 80 4567 8900" },
  placeOfSupply: "Karnataka (29)",
  payment: { method: "UPI", providerPaymentId: "pay_Abc123Def456Gh" },
  free: false,
  creditNote: { number: "ACD-CN-000007", issuedAt: paidAt, providerRefundId: "rfnd_1", whole: false, amount: 100_000, taxableAmount: 84_746, cgst: 7_627, sgst: 7_627, igst: 0 },
};

/** The tax breakdown's rows as a reader sees them: "label amount". */
function breakdown(html: string): string[] {
  const table = /<caption class="sr-only">Tax breakdown<\/caption>(.*?)<\/table>/.exec(html)?.[1] ?? "";
  return [...table.matchAll(/<tr[^>]*><th[^>]*>(.*?)<\/th><td[^>]*>(.*?)<\/td><\/tr>/g)].map((m) => `${(m[1] ?? "").trim()} ${m[2]}`);
}

describe("the tax invoice", () => {
  it("shows a coupon as a discount from the listed price before GST", () => {
    expect(breakdown(renderToStaticMarkup(<ReceiptDocument r={invoice} />))).toEqual([
      "Listed price ₹5,931.36",
      "Discount (coupon TWENTY) -₹1,186.28",
      "Taxable value ₹4,745.08",
      "CGST @ 9% ₹427.06",
      "SGST @ 9% ₹427.06",
      "Total ₹5,599.20",
    ]);
  });

  it("states on a credit note only what was refunded, without the coupon", () => {
    expect(breakdown(renderToStaticMarkup(<ReceiptDocument r={invoice} asCreditNote />))).toEqual(["Taxable value ₹847.46", "CGST @ 9% ₹76.27", "SGST @ 9% ₹76.27", "Total ₹1,000.00"]);
  });
});

import { getReceipt, orderPagePath, placeOfSupply, taxSplit } from "../../../server/commerce/index.ts";
import type { Catalog } from "../../../server/catalog/index.ts";
import type { AppServices } from "../../../server/context.ts";
import type { ReceiptView } from "../../../common/view-types.ts";
import { paymentMethodLabel } from "../../components/account-payment-method.tsx";
import { formatCreditNoteNumber, formatOrderNumber } from "../../../common/format.ts";

/**
 * Everything a receipt (the GST tax invoice) shows of one of the buyer's orders, for the receipt
 * page and the invoice the CLI downloads. Another person's order is not found. "Billed to" is the
 * buyer as recorded when the order was paid, never the profile as it is now.
 */
export async function receiptView(db: AppServices["db"], catalog: Catalog, buyer: { id: string }, orderId: string): Promise<ReceiptView> {
  const { order, payment, refund, discount } = await getReceipt(db, buyer.id, orderId);
  const { site } = catalog;
  return {
    id: order.id,
    number: formatOrderNumber(order.number),
    paid: order.status === "paid" || order.status === "refunded",
    status: order.status,
    courseId: order.courseId,
    kind: order.kind,
    payPath: orderPagePath(order),
    title: order.title,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    amount: order.amount,
    taxableAmount: order.taxableAmount,
    taxAmount: order.taxAmount,
    discount,
    taxRatePercent: order.taxRatePercent,
    taxMode: order.taxMode,
    ...taxSplit(order.taxAmount, site.gstin, order.buyerGstin),
    buyer: { name: order.billingName ?? "", email: order.billingEmail ?? "", gstin: order.buyerGstin },
    seller: {
      legalName: site.legalName,
      addressLines: [site.address.line1, site.address.line2, `${site.address.city} ${site.address.postalCode}`, `${site.address.state}, ${site.address.country}`].filter(
        (line): line is string => Boolean(line),
      ),
      gstin: site.gstin,
      email: site.email,
      phone: site.phone,
    },
    placeOfSupply: placeOfSupply(site, order.buyerGstin),
    payment: payment && {
      method: paymentMethodLabel(payment.method),
      providerPaymentId: payment.providerPaymentId,
    },
    free: order.provider === "free",
    // The invoice never changes; a refund is corrected by a credit note of its own.
    creditNote:
      refund?.status === "processed" && refund.creditNoteNumber !== null && refund.processedAt
        ? {
            number: formatCreditNoteNumber(refund.creditNoteNumber),
            issuedAt: refund.processedAt,
            providerRefundId: refund.providerRefundId,
            whole: refund.amount === order.amount,
            amount: refund.amount,
            taxableAmount: refund.taxableAmount,
            ...taxSplit(refund.taxAmount, site.gstin, order.buyerGstin),
          }
        : null,
  };
}

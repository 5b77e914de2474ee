export { checkWithProvider, completeCheckout, type ProviderCheck } from "./checkout.ts";
export { isEnrolled } from "./fulfilment.ts";
export { cancelOrder, createHostingOrder, createOrder, findOrder, giveHostingPeriod, grantCourse, normaliseGstin, orderPagePath, type Order } from "./orders.ts";
export { gstinState, gstSplit, placeOfSupply, priceBreakdown, taxSplit, type PriceBreakdown } from "./pricing.ts";
export { gstRegister, gstRegisterColumns, invoiceColumns, registerBatchSize, type RegisterRow } from "./register.ts";
export { foldAttempts, getReceipt, historyPageSize, listOrders, listOrdersWithEligibility, listOwnedCourses, listPayments, pageOf, type HistoryPage, type OrderSummary, type OrderWithRefund, type OwnedCourse, type PaymentSummary, type Receipt, unappliedHostingReason } from "./queries.ts";
export { refundEligibility, refundOutsidePolicy, requestRefund, type Refund } from "./refunds.ts";
export { coursePlayerPath, type Shop } from "./shop.ts";
export { handleWebhook } from "./webhooks.ts";

const methodLabels: Record<string, string> = { upi: "UPI", card: "Card", netbanking: "Net banking", wallet: "Wallet", emi: "EMI" };

/** The provider's method code ("netbanking") as buyers say it ("Net banking"). */
export function paymentMethodLabel(method: string | null | undefined): string {
  if (!method) return "Not recorded";
  return methodLabels[method] ?? method.charAt(0).toUpperCase() + method.slice(1);
}

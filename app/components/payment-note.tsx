/** Who takes the money, as it really is: Razorpay in a live shop, the sandbox in a test shop, where nothing is charged. */
export function PaymentNote({ provider, className = "" }: { provider: "razorpay" | "sandbox"; className?: string }) {
  return (
    <p className={`text-center text-xs text-slate-600 dark:text-slate-400 ${className}`.trim()}>
      {provider === "razorpay" ? "Payments are processed securely by Razorpay. UPI, cards, net banking and wallets accepted." : "A test shop: payments go to a sandbox, and no money moves."}
    </p>
  );
}

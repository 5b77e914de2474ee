import { useEffect, useState } from "react";

/** Razorpay Checkout's options, the ones we send (https://razorpay.com/docs/payments/payment-gateway/web-integration/standard/). */
export interface RazorpayCheckoutOptions {
  key: string;
  order_id: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  prefill: { name: string; email: string };
  callback_url: string;
  redirect: true;
  theme: { color: string };
}

type RazorpayConstructor = new (options: RazorpayCheckoutOptions & { modal: { ondismiss: () => void } }) => { open(): void };

const scriptUrl = "https://checkout.razorpay.com/v1/checkout.js";

function loadScript(): Promise<RazorpayConstructor> {
  const existing = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = scriptUrl;
    script.async = true;
    script.addEventListener("load", () => {
      const loaded = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (loaded) resolve(loaded);
      else reject(new Error("Razorpay Checkout did not load"));
    });
    script.addEventListener("error", () => reject(new Error("Razorpay Checkout did not load")));
    document.head.append(script);
  });
}

/**
 * Opens Razorpay Checkout for a created order. Razorpay posts the result to our callback URL
 * (redirect mode); closing the window without paying calls `onDismiss`.
 */
export function RazorpayCheckout({ options, onDismiss }: { options: RazorpayCheckoutOptions; onDismiss: () => void }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    loadScript().then(
      (Razorpay) => {
        if (!cancelled) new Razorpay({ ...options, modal: { ondismiss: onDismiss } }).open();
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [options, onDismiss]);
  return (
    <p role="status" className="mt-4 text-sm text-slate-600 dark:text-slate-400">
      {failed
        ? "The payment window could not be opened. Check your connection, or turn off any blocker for checkout.razorpay.com, and try again. Nothing was charged."
        : "Opening the secure payment window…"}
    </p>
  );
}

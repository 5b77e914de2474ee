import { Form, Link } from "react-router";
import { Button } from "./ui/button.tsx";
import { TextField } from "./ui/field.tsx";

/**
 * A checkout page's coupon: typed and applied by loading the page again with ?coupon= (a GET, so it
 * works without scripts; `keep` carries the page's other choices), or the one applied, with a link
 * back to the page without it.
 */
export function CouponForm({
  removeTo,
  coupon,
  typed,
  problem,
  keep = {},
}: {
  removeTo: string;
  coupon: { code: string; label: string } | null;
  typed: string;
  problem: string | null;
  keep?: Record<string, string>;
}) {
  if (coupon) {
    return (
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
        Coupon {coupon.code} applied: {coupon.label}.{" "}
        <Link to={removeTo} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
          Remove it
        </Link>
      </p>
    );
  }
  return (
    <Form method="get" className="mt-4 flex items-start gap-2">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="min-w-0 flex-1">
        <TextField label="Coupon code" name="coupon" defaultValue={typed} error={problem ?? undefined} autoComplete="off" autoCapitalize="characters" maxLength={64} compact />
      </div>
      <Button type="submit" variant="secondary" className="mt-6 shrink-0">
        Apply
      </Button>
    </Form>
  );
}

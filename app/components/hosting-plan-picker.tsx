import { useCallback, useRef } from "react";
import { Form } from "react-router";
import { formatMoney, intervalLabel } from "../../common/format.ts";
import { type Billing, offersBothBillings, type PlanChoice, type PlanTier, tierPlan, yearlySavingLabel } from "../../common/hosting-plans.ts";
import { CheckList } from "./check-list.tsx";
import { Button } from "./ui/button.tsx";
import { choiceCardClass, useRadioCheckedBeforeHydration } from "./ui/choice.tsx";

/** The id of the picker's form, for a submit button elsewhere on the page (the sticky bar's). */
export const hostingPlanForm = "hosting-plan";

const billingLabel: Record<Billing, string> = { month: "Monthly", year: "Yearly" };

/**
 * The one place a hosting plan is chosen: a Monthly/Yearly toggle over a card per tier, and "Start
 * hosting", which opens the new-website page with the chosen plan (`?service=&plan=`). The page
 * holds the choice (`choice`, `onChoose`). Without scripts the toggle's buttons load `togglePath`
 * again with `?billing=`, keeping the tier; with them it switches at once. The radios are uncontrolled,
 * so a tier picked before the script arrived stays picked.
 */
export function HostingPlanPicker({
  serviceId,
  tiers,
  openingTier,
  choice,
  onChoose,
  togglePath,
}: {
  serviceId: string;
  tiers: PlanTier[];
  /** The tier checked when the page was rendered; later choices live in the radios themselves. */
  openingTier: string;
  choice: PlanChoice;
  onChoose: (choice: PlanChoice) => void;
  togglePath: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const { billing } = choice;
  const pickedEarly = useCallback(
    (planId: string) => {
      const tier = tiers.find((t) => t.month?.id === planId || t.year?.id === planId);
      if (tier && tier.name !== choice.tier) onChoose({ tier: tier.name, billing });
    },
    [tiers, choice.tier, billing, onChoose],
  );
  useRadioCheckedBeforeHydration(form, "plan", pickedEarly);
  const saving = yearlySavingLabel(tiers);
  return (
    <Form id={hostingPlanForm} ref={form} method="get" action="/account/services/websites/new" className="mt-4">
      <input type="hidden" name="service" value={serviceId} />
      {offersBothBillings(tiers) && (
        <div role="group" aria-label="Billing" className="inline-flex rounded-full border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-900">
          {(["month", "year"] as const).map((option) => (
            <button
              key={option}
              type="submit"
              name="billing"
              value={option}
              formAction={togglePath}
              aria-pressed={billing === option}
              onClick={(event) => {
                event.preventDefault();
                onChoose({ ...choice, billing: option });
              }}
              className="rounded-full px-4 py-2 text-sm font-semibold text-slate-700 hover:text-slate-950 aria-pressed:bg-brand-600 aria-pressed:text-white dark:text-slate-300 dark:hover:text-white dark:aria-pressed:text-white"
            >
              {billingLabel[option]}
              {option === "year" && saving && <span className="font-normal">, {saving}</span>}
            </button>
          ))}
        </div>
      )}
      <fieldset className="mt-4">
        <legend className="sr-only">Plan</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {tiers.map((tier) => {
            const plan = tierPlan(tier, billing);
            return (
              <div key={tier.name} className={`${choiceCardClass} relative flex-col`}>
                {/* The label's box stretches over the card: a tap anywhere on it picks the plan. */}
                <label className="flex cursor-pointer items-start gap-3 after:absolute after:inset-0 after:rounded-xl">
                  <input
                    type="radio"
                    name="plan"
                    value={plan.id}
                    defaultChecked={tier.name === openingTier}
                    onChange={() => onChoose({ tier: tier.name, billing })}
                    className="relative z-10 mt-1.5"
                  />
                  <span>
                    <span className="block font-semibold text-slate-950 dark:text-white">{tier.name}</span>
                    <span className="block">
                      <span className="text-2xl font-bold text-slate-950 dark:text-white">{formatMoney(plan.price)}</span>{" "}
                      <span className="text-sm text-slate-600 dark:text-slate-400">{intervalLabel[plan.interval]}</span>
                    </span>
                    {plan.interval === "year" && tier.yearlySaving && (
                      <span className="block text-sm text-emerald-700 dark:text-emerald-300">
                        {formatMoney(tier.yearlySaving)} less than 12 monthly payments
                      </span>
                    )}
                  </span>
                </label>
                <CheckList small items={plan.features} className="space-y-2 pl-7" />
              </div>
            );
          })}
        </div>
      </fieldset>
      <Button type="submit" size="lg" className="mt-5 w-full sm:w-auto">
        Start hosting
      </Button>
    </Form>
  );
}

import type { Money } from "../../common/view-types.ts";
import { formatMoney, intervalLabel } from "../../common/format.ts";
import { choiceCardClass, useRadioCheckedBeforeHydration } from "./ui/choice.tsx";
import { useRef } from "react";

export interface PickablePlan {
  id: string;
  name: string;
  interval: "month" | "year";
  price: Money;
  /** A line under the price, such as the date the plan would host the site until. */
  note?: string;
}

/**
 * The hosting plans as radio cards; a plain form posts the chosen one as `planId`. The radios are
 * uncontrolled: a plan picked before the page's script arrived stays picked, and `onSelect` hears of it.
 */
export function PlanPicker({
  plans,
  selected,
  legend,
  onSelect,
}: {
  plans: PickablePlan[];
  selected: string | null;
  legend: string;
  onSelect?: (planId: string) => void;
}) {
  const group = useRef<HTMLFieldSetElement>(null);
  useRadioCheckedBeforeHydration(group, "planId", onSelect);
  return (
    <fieldset ref={group}>
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{legend}</legend>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {plans.map((plan) => (
          <label
            key={plan.id}
            className={choiceCardClass}
          >
            <input
              type="radio"
              name="planId"
              value={plan.id}
              defaultChecked={plan.id === selected}
              required
              onChange={() => onSelect?.(plan.id)}
              className="mt-1"
            />
            <span>
              <span className="block font-semibold text-slate-950 dark:text-white">{plan.name}</span>
              <span className="block text-sm text-slate-700 dark:text-slate-300">
                {formatMoney(plan.price)} {intervalLabel[plan.interval]}
              </span>
              {plan.note && <span className="mt-1 block text-xs text-slate-600 dark:text-slate-400">{plan.note}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

import { useNavigation } from "react-router";

/** Whether the page's form with this `intent` is being sent now: for its button's pending label. */
export function useSubmittingIntent(): (intent: string) => boolean {
  const navigation = useNavigation();
  return (intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

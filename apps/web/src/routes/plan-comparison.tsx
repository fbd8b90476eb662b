import { useParams } from "@tanstack/react-router";
import { PlanComparison } from "../features/subscribe/comparison.tsx";
import { parseFrequency } from "../features/subscribe/frequency.ts";

/** /plan-comparison/{frequency} (accounts-billing-admin §2.2), open to anyone. */
export default function PlanComparisonScreen() {
  const { frequency } = useParams({ strict: false }) as { frequency?: string };
  return <PlanComparison frequency={parseFrequency(frequency)} />;
}

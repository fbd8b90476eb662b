import type { Permission, SubscriberRole } from "@hearth/contract";
import { planForPermission, planPerks, roleTitle } from "@hearth/contract/labels";
import { Link } from "@tanstack/react-router";
import { Check, Crown } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";

export type PaidPlan = Exclude<SubscriberRole, "free">;

/** The plan a permission needs: 4k_context and images → True Supporter, 8k_context → I'm All In (§6). */
export function planFor(permission: Permission | null): PaidPlan | null {
  return permission ? (planForPermission[permission] ?? null) : null;
}

/**
 * 'True Supporter Plan Required' and 'I'm All In Plan Required' (§2 modals): what the plan brings,
 * and the subscribe page with that plan preselected (issue 13 item 9).
 */
export function PlanRequiredDialog({
  plan,
  feature,
  onClose,
}: {
  plan: PaidPlan | null;
  /** What the user tried to use, e.g. a model's name. */
  feature: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={plan !== null} onOpenChange={(open) => !open && onClose()}>
      {plan ? (
        <DialogContent
          title={`${roleTitle[plan]} Plan Required`}
          description={`${feature} is part of the ${roleTitle[plan]} plan.`}
        >
          <div className="flex flex-col gap-3 rounded-lg border border-accent/40 bg-accent-soft p-4">
            <p className="flex items-center gap-2 font-semibold">
              <Crown aria-hidden className="size-4 text-accent-text" />
              {roleTitle[plan]}
            </p>
            <ul className="flex flex-col gap-1.5 text-sm">
              {planPerks[plan].map((perk) => (
                <li key={perk} className="flex gap-2">
                  <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                  {perk}
                </li>
              ))}
            </ul>
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Got it</Button>
            </DialogClose>
            <Button asChild>
              <Link to="/subscribe" search={{ plan }}>
                Upgrade to {roleTitle[plan]}
              </Link>
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

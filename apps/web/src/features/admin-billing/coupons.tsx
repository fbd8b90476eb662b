import type { Coupon, Plan } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { TicketPercent, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { couponsQuery, useDeleteCoupon } from "./api.ts";
import { CouponForm } from "./coupon-form.tsx";
import { discountLabel, redemptionsLabel } from "./coupon-rules.ts";

const expiry = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

function CouponItem({
  coupon,
  plans,
  onDelete,
}: {
  coupon: Coupon;
  plans: readonly Plan[];
  onDelete: () => void;
}) {
  const planNames = coupon.plan_ids.map((id) => {
    const plan = plans.find((p) => p.plan_id === id);
    return plan ? `${plan.title} (${plan.period === "annual" ? "yearly" : "monthly"})` : id;
  });
  const expired = coupon.expires_at !== null && Date.parse(coupon.expires_at) <= Date.now();
  const usedUp = coupon.max_redemptions !== null && coupon.redeemed >= coupon.max_redemptions;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono font-semibold">{coupon.code}</span>
          <Badge tone="accent">{discountLabel(coupon)}</Badge>
          <Badge>{coupon.duration === "once" ? "Once" : "Forever"}</Badge>
          {expired ? (
            <Badge tone="danger">Expired</Badge>
          ) : usedUp ? (
            <Badge tone="warning">Used up</Badge>
          ) : null}
        </p>
        <p className="text-sm text-muted">
          {planNames.length ? planNames.join(", ") : "All plans"} · {redemptionsLabel(coupon)} ·{" "}
          {coupon.expires_at ? `expires ${expiry.format(new Date(coupon.expires_at))}` : "never expires"}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        className="self-start sm:self-center"
        onClick={onDelete}
        aria-label={`Delete ${coupon.code}`}
      >
        <Trash2 aria-hidden />
        Delete
      </Button>
    </li>
  );
}

/** The site's coupon codes (the manual provider's; Stripe keeps its own promotion codes). */
export function Coupons({ plans }: { plans: readonly Plan[] }) {
  const coupons = useQuery(couponsQuery);
  const remove = useDeleteCoupon();
  const [deleting, setDeleting] = useState<Coupon | null>(null);
  const [notice, setNotice] = useState("");
  const list = coupons.data ?? [];

  return (
    <div className="flex flex-col gap-6">
      <CouponForm plans={plans} onCreated={(code) => setNotice(`Coupon ${code} created.`)} />
      <p role="status" className={notice ? "text-sm text-success" : "sr-only"}>
        {notice}
      </p>
      {remove.error ? (
        <Banner tone="danger" title="The coupon wasn't deleted">
          {errorMessage(remove.error)}
        </Banner>
      ) : null}
      <section aria-labelledby="coupon-list-heading" className="flex flex-col gap-3">
        <h2 id="coupon-list-heading" className="text-lg font-semibold">
          Coupons
        </h2>
        {coupons.isPending ? (
          <PageSpinner label="Loading coupons" />
        ) : coupons.isError && !coupons.data ? (
          <LoadErrorBanner
            title="Couldn't load the coupons"
            error={coupons.error}
            onRetry={() => void coupons.refetch()}
          />
        ) : list.length === 0 ? (
          <EmptyState icon={TicketPercent} title="No coupons yet">
            Codes you create above are listed here.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-border rounded-xl border border-border bg-surface">
            {list.map((coupon) => (
              <CouponItem
                key={coupon.code}
                coupon={coupon}
                plans={plans}
                onDelete={() => setDeleting(coupon)}
              />
            ))}
          </ul>
        )}
      </section>

      <Dialog open={deleting !== null} onOpenChange={(open) => (open ? null : setDeleting(null))}>
        {deleting ? (
          <DialogContent
            title={`Delete ${deleting.code}?`}
            description="Members can no longer use it. Orders that already used it keep their discount."
          >
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Keep it</Button>
              </DialogClose>
              <Button
                variant="danger"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(deleting.code, {
                    onSuccess: () => {
                      setNotice(`Coupon ${deleting.code} deleted.`);
                      setDeleting(null);
                    },
                    onError: () => setDeleting(null),
                  })
                }
              >
                Delete coupon
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}

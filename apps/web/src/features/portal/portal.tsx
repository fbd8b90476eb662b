import { roleTitle, type Subscription, type SubscriptionActionRequest } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CreditCard } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { checkoutSearch, formatPrice, perPeriod } from "../subscribe/frequency.ts";
import { subscriptionQuery, useSubscriptionAction } from "./api.ts";
import { ChangeCardDialog } from "./card-dialog.tsx";
import { ChangePlanDialog } from "./plan-dialog.tsx";
import {
  dateLabel,
  formatDate,
  type PortalStatus,
  paymentMethod,
  portalActions,
  portalNotice,
} from "./rules.ts";

const statusBadge: Record<PortalStatus, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "success" },
  cancelled: { label: "Cancelled", tone: "warning" },
  grace: { label: "Payment overdue", tone: "danger" },
  expired: { label: "Expired", tone: "neutral" },
  incomplete: { label: "Not started", tone: "neutral" },
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function Summary({ sub }: { sub: Subscription }) {
  const current = sub.current_product;
  const when = dateLabel(sub);
  const badge = statusBadge[sub.subscription_status];
  const period = sub.frequency === "Yearly Subscription" ? "annual" : "monthly";
  return (
    <section
      aria-labelledby="portal-plan-heading"
      className="flex flex-col gap-5 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="portal-plan-heading" className="text-lg font-semibold">
          Your subscription
        </h2>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Row label="Current plan">
          {current.name} <span className="font-normal text-muted">({sub.frequency})</span>
        </Row>
        <Row label="Price">
          {formatPrice(current.price, current.currency)} / {perPeriod(period)}
        </Row>
        {when && sub.recur_at ? <Row label={when}>{formatDate(sub.recur_at)}</Row> : null}
        <Row label="Payment method">{paymentMethod(sub)}</Row>
        {sub.next_product && sub.recur_at ? (
          <Row label="Changes to">
            {sub.next_product.name} on {formatDate(sub.recur_at)}
          </Row>
        ) : null}
      </dl>
    </section>
  );
}

function Notice({ sub, rebillError }: { sub: Subscription; rebillError: string | null }) {
  const notice = portalNotice(sub, rebillError);
  if (!notice) return null;
  switch (notice.kind) {
    case "grace":
      return <Banner tone="danger">{notice.text}</Banner>;
    case "expired":
      return (
        <Banner
          tone="warning"
          title={notice.text}
          action={
            <Button asChild size="sm">
              <Link to="/checkout" search={checkoutSearch(notice.reactivatePlanId)}>
                Reactivate
              </Link>
            </Button>
          }
        >
          Subscribe again to get your benefits back.
        </Banner>
      );
    case "cancelled":
      return (
        <Banner tone="info" title="Your subscription is cancelled.">
          {notice.until
            ? `You keep your benefits until ${formatDate(notice.until)}. Uncancel to keep them after that.`
            : "Uncancel to keep your benefits."}
        </Banner>
      );
    case "incomplete":
      return (
        <Banner
          tone="info"
          title="Your subscription hasn't started."
          action={
            <Button asChild size="sm">
              <Link to="/checkout" search={checkoutSearch(notice.planId)}>
                Finish checkout
              </Link>
            </Button>
          }
        >
          Its checkout wasn't finished.
        </Banner>
      );
  }
}

function CancelDialog({
  sub,
  open,
  onOpenChange,
  pending,
  onConfirm,
  onCloseAutoFocus,
}: {
  sub: Subscription;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const until = sub.recur_at ? formatDate(sub.recur_at) : "the end of the period you paid for";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        title="Cancel your subscription?"
        description={
          sub.subscription_status === "grace"
            ? "Your last payment failed, so cancelling ends your benefits now."
            : `You keep your ${sub.current_product.name} benefits until ${until}, and you won't be charged again. You can uncancel before then.`
        }
      >
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep my subscription</Button>
          </DialogClose>
          <Button variant="danger" loading={pending} onClick={onConfirm}>
            Cancel subscription
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type Message = { tone: "success" | "danger"; text: string };

/** The portal for a member who has a subscription: what it is, what can be done, and the server's answers. */
function Manage({ sub }: { sub: Subscription }) {
  const action = useSubscriptionAction();
  const [dialog, setDialog] = useState<"cancel" | "plan" | "card" | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [rebillError, setRebillError] = useState<string | null>(null);
  const actions = portalActions(sub);
  const running = (kind: SubscriptionActionRequest["action"]) =>
    action.isPending && action.variables?.action === kind;

  // After an action its button may be gone (Cancel becomes Uncancel): focus goes to the answer,
  // not back to a button that is about to disappear (nor to the page's start).
  const answer = useRef<HTMLDivElement>(null);
  const acted = useRef(false);
  const [answered, setAnswered] = useState(0);
  useEffect(() => {
    if (answered) answer.current?.focus({ preventScroll: false });
  }, [answered]);
  const afterDialog = (event: Event) => {
    if (!acted.current) return;
    acted.current = false;
    event.preventDefault();
  };

  /** Resolves once the server has answered and the answer is shown. */
  const act = (body: Omit<SubscriptionActionRequest, "subscription_id" | "order_id">) =>
    new Promise<void>((settled) => {
      setMessage(null);
      setRebillError(null);
      acted.current = dialog !== null;
      action.mutate(
        { ...body, subscription_id: sub.subscription_id, order_id: sub.order_id },
        {
          onSuccess: (result) => setMessage({ tone: "success", text: result.message }),
          onError: (error) => {
            // §8: a failed rebill's message takes the payment-failed text's place.
            if (body.action === "charge_rebill") setRebillError(errorMessage(error));
            else setMessage({ tone: "danger", text: errorMessage(error) });
          },
          onSettled: () => {
            setDialog(null);
            setAnswered((n) => n + 1);
            settled();
          },
        },
      );
    });

  return (
    <div className="flex flex-col gap-4">
      <Summary sub={sub} />
      <Notice sub={sub} rebillError={rebillError} />
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-2">
          {actions.payOverdue ? (
            <Button loading={running("charge_rebill")} onClick={() => void act({ action: "charge_rebill" })}>
              Pay overdue
            </Button>
          ) : null}
          {actions.uncancel ? (
            <Button loading={running("uncancel")} onClick={() => void act({ action: "uncancel" })}>
              Uncancel
            </Button>
          ) : null}
          {actions.changePlan.visible ? (
            <Button
              variant="outline"
              disabled={actions.changePlan.disabledReason !== null}
              aria-describedby={actions.changePlan.disabledReason ? "portal-plan-hint" : undefined}
              onClick={() => setDialog("plan")}
            >
              Change Plan
            </Button>
          ) : null}
          {actions.changeCard ? (
            <Button variant="outline" onClick={() => setDialog("card")}>
              Change Card
            </Button>
          ) : null}
          {actions.cancel ? (
            <Button variant="outline" onClick={() => setDialog("cancel")}>
              Cancel subscription
            </Button>
          ) : null}
        </div>
        {actions.changePlan.visible && actions.changePlan.disabledReason ? (
          <p id="portal-plan-hint" className="text-sm text-muted">
            {actions.changePlan.disabledReason}
          </p>
        ) : null}
      </div>
      {/* Server answers under the portal (§7): errors in red and announced at once. */}
      <div ref={answer} tabIndex={-1} className="outline-none">
        {message ? (
          message.tone === "danger" ? (
            <p role="alert" className="text-sm font-medium text-danger">
              {message.text}
            </p>
          ) : (
            <Banner tone="success">{message.text}</Banner>
          )
        ) : null}
      </div>

      <CancelDialog
        sub={sub}
        open={dialog === "cancel"}
        onOpenChange={(open) => setDialog(open ? "cancel" : null)}
        pending={running("cancel")}
        onConfirm={() => void act({ action: "cancel" })}
        onCloseAutoFocus={afterDialog}
      />
      <ChangePlanDialog
        sub={sub}
        open={dialog === "plan"}
        onOpenChange={(open) => setDialog(open ? "plan" : null)}
        pending={running("change_plan")}
        onChoose={(planId) => void act({ action: "change_plan", plan_id: planId })}
        onCloseAutoFocus={afterDialog}
      />
      <ChangeCardDialog
        sub={sub}
        open={dialog === "card"}
        onOpenChange={(open) => setDialog(open ? "card" : null)}
        onSave={(cardToken) => act({ action: "change_card", card_token: cardToken })}
        onCloseAutoFocus={afterDialog}
      />
    </div>
  );
}

/**
 * The subscriber portal (/portal, /manage-subscription; accounts-billing-admin §2.2, §4, §7, §8):
 * current plan, price, next charge date and payment method, with Cancel, Uncancel, Change Plan,
 * Change Card and Pay overdue as the subscription's state allows.
 */
export function Portal() {
  const me = useMe();
  const subscription = useQuery(subscriptionQuery);
  if (subscription.isPending) return <PageSpinner label="Loading your subscription" />;
  if (subscription.isError) {
    return (
      <LoadErrorBanner
        title="Your subscription couldn't be loaded"
        error={subscription.error}
        onRetry={() => void subscription.refetch()}
      />
    );
  }
  if (!subscription.data) {
    // A plan an administrator set by hand (hearth user set-role) has no subscription to manage.
    const handSet = me && me.role !== "free" && me.status === "active";
    return (
      <EmptyState
        icon={CreditCard}
        title="You have no subscription"
        headingLevel={2}
        action={
          <Button asChild>
            <Link to="/subscribe">See the plans</Link>
          </Button>
        }
      >
        {handSet
          ? `Your ${roleTitle[me.role]} plan was arranged with the site's administrators, so there is nothing to manage here.`
          : "Subscribe to unlock more: longer memory, images in your chats, larger models and more."}
      </EmptyState>
    );
  }
  return <Manage sub={subscription.data} />;
}

import type { CheckoutOrder } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CircleCheck, Clock, MessagesSquare, ReceiptText, TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { meQuery } from "../../lib/session.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { formatPrice } from "../subscribe/frequency.ts";
import { orderQuery } from "./api.ts";
import { SESSION_REFRESH_MS } from "./rules.ts";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" });

/** The status line: Success once paid (§2.2); a manual order waits for the administrators. */
export function orderStatus(order: CheckoutOrder): { label: string; tone: BadgeTone } {
  switch (order.status) {
    case "approved":
      return { label: "Success", tone: "success" };
    case "failed":
      return { label: "Failed", tone: "danger" };
    case "requires_action":
      return { label: "Waiting for your bank", tone: "warning" };
    default:
      return { label: order.provider === "manual" ? "Waiting for payment" : "Processing", tone: "warning" };
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:justify-between sm:gap-6">
      <dt className="shrink-0 text-sm text-muted">{label}</dt>
      <dd className="min-w-0 font-medium break-all sm:text-right">{children}</dd>
    </div>
  );
}

function Heading({ order }: { order: CheckoutOrder }) {
  const paid = order.status === "approved";
  const failed = order.status === "failed";
  const Icon = paid ? CircleCheck : failed ? TriangleAlert : Clock;
  return (
    <div className="flex flex-col items-center gap-3 text-center">
      <span
        className={
          paid
            ? "flex size-14 items-center justify-center rounded-full bg-success-soft text-success"
            : failed
              ? "flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger"
              : "flex size-14 items-center justify-center rounded-full bg-warning-soft text-warning"
        }
      >
        <Icon aria-hidden className="size-7" />
      </span>
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
        {paid
          ? "Thank you for your purchase!"
          : failed
            ? "The payment didn't go through"
            : "Thank you for your order!"}
      </h1>
      <p className="text-3xl font-semibold tabular-nums">{formatPrice(order.amount, order.currency)}</p>
      <p className="max-w-md text-muted">
        {paid
          ? `Your ${order.plan_title} plan is active. Enjoy your new features.`
          : failed
            ? (order.error_message ?? "Your card was not charged. You can try again from the plans page.")
            : order.provider === "manual"
              ? "Your plan starts as soon as an administrator confirms your payment."
              : "We're waiting for the payment to be confirmed. This page shows the result when it is."}
      </p>
    </div>
  );
}

/**
 * /checkout/success (§2.2 Checkout success): thanks, the amount, the Payment Details and Start
 * Chatting. The session is read again 5 s after the page loads (§4, §9), so the new tier's
 * features show everywhere.
 */
export function SuccessPage({ orderId }: { orderId: string | null }) {
  const queryClient = useQueryClient();
  const order = useQuery({ ...orderQuery(orderId ?? ""), enabled: orderId !== null });

  useEffect(() => {
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
      SESSION_REFRESH_MS,
    );
    return () => clearTimeout(timer);
  }, [queryClient]);

  const missing =
    isApiRequestError(order.error) && (order.error.status === 404 || order.error.status === 400);
  if (!orderId || (missing && !order.data)) {
    return (
      <Page width="medium">
        <EmptyState
          icon={ReceiptText}
          headingLevel={2}
          title="We couldn't find that order"
          action={
            <Button asChild>
              <Link to="/subscribe">See the plans</Link>
            </Button>
          }
        >
          The link doesn't name one of your orders.
        </EmptyState>
      </Page>
    );
  }
  if (order.isError && !order.data) {
    return (
      <Page width="medium">
        <LoadErrorBanner
          title="Your order couldn't load"
          error={order.error}
          onRetry={() => void order.refetch()}
        />
      </Page>
    );
  }
  if (!order.data) return <PageSpinner label="Loading your order" />;

  const data = order.data;
  const status = orderStatus(data);
  const waitingManual = data.provider === "manual" && data.status === "pending";
  return (
    <Page width="narrow" className="flex flex-col gap-6">
      <Heading order={data} />

      {waitingManual && data.instructions ? (
        <section
          aria-labelledby="success-instructions-heading"
          className="flex flex-col gap-2 rounded-xl border border-warning/40 bg-warning-soft p-5"
        >
          <h2 id="success-instructions-heading" className="font-semibold">
            How to pay
          </h2>
          <p className="text-sm whitespace-pre-line">{data.instructions}</p>
          <p className="text-sm text-muted">Mention your order id so the administrators can find it.</p>
        </section>
      ) : null}

      <section
        aria-labelledby="success-details-heading"
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
      >
        <h2 id="success-details-heading" className="text-lg font-semibold">
          Payment Details
        </h2>
        <dl className="flex flex-col gap-3">
          <Row label="Plan">{data.plan_title}</Row>
          <Row label="Date">{dateTime.format(new Date(data.created_at))}</Row>
          <Row label="Order id">
            <span className="font-mono text-sm">{data.order_id}</span>
          </Row>
          {data.subscription_id ? (
            <Row label="Subscription id">
              <span className="font-mono text-sm">{data.subscription_id}</span>
            </Row>
          ) : null}
          {data.transaction_id ? (
            <Row label="Transaction id">
              <span className="font-mono text-sm">{data.transaction_id}</span>
            </Row>
          ) : null}
          <Row label="Status">
            <Badge tone={status.tone}>{status.label}</Badge>
          </Row>
        </dl>
      </section>

      <Button asChild size="lg" className="self-center">
        <Link to="/">
          <MessagesSquare aria-hidden />
          Start Chatting
        </Link>
      </Button>
    </Page>
  );
}

import type { CheckoutOrder } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, Inbox } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { formatPrice } from "../subscribe/frequency.ts";
import { pendingOrdersQuery, useMarkReceived } from "./api.ts";

type PendingOrder = CheckoutOrder & { user_id: string | null; email: string; name: string };

const orderedOn = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

type Notice = { ok: boolean; text: string } | null;

function MarkReceived({ order, onDone }: { order: PendingOrder; onDone: (notice: Notice) => void }) {
  const mark = useMarkReceived();
  return (
    <Button
      size="sm"
      loading={mark.isPending && mark.variables === order.order_id}
      disabled={mark.isPending}
      aria-label={`Mark received: ${order.name || order.email}, ${order.plan_title}`}
      onClick={() =>
        mark.mutate(order.order_id, {
          onSuccess: () =>
            onDone({
              ok: true,
              text: `Received: ${order.name || order.email} is now on ${order.plan_title}.`,
            }),
          onError: (error) => onDone({ ok: false, text: errorMessage(error) }),
        })
      }
    >
      <CircleCheck aria-hidden />
      Mark received
    </Button>
  );
}

/**
 * Manual orders waiting for their payment (docs/billing.md): who, which plan, how much, when.
 * "Mark received" starts the member's period.
 */
export function PendingOrders() {
  const orders = useQuery(pendingOrdersQuery);
  const [notice, setNotice] = useState<Notice>(null);
  const list = (orders.data ?? []) as PendingOrder[];

  return (
    <div className="flex flex-col gap-4">
      <p role="status" className={notice?.ok ? "text-sm text-success" : "sr-only"}>
        {notice?.ok ? notice.text : ""}
      </p>
      {notice && !notice.ok ? (
        <Banner tone="danger" title="That didn't work">
          {notice.text}
        </Banner>
      ) : null}
      {orders.isPending ? (
        <PageSpinner label="Loading orders" />
      ) : orders.isError && !orders.data ? (
        <LoadErrorBanner
          title="Couldn't load the orders"
          error={orders.error}
          onRetry={() => void orders.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState icon={Inbox} title="No payments waiting" headingLevel={2}>
          Orders members place with "Pay by arrangement" wait here until you mark their payment received.
        </EmptyState>
      ) : (
        <>
          <div className="hidden overflow-hidden rounded-xl border border-border bg-surface md:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Manual payments waiting to be marked received</caption>
              <thead className="border-b border-border bg-surface-2/50 text-xs tracking-wider text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Member
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Plan
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Ordered
                  </th>
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {list.map((order) => (
                  <tr key={order.order_id}>
                    <td className="max-w-72 px-4 py-3">
                      <span className="block truncate font-medium">{order.name || "—"}</span>
                      <span className="block truncate text-muted">{order.email}</span>
                    </td>
                    <td className="px-4 py-3">{order.plan_title}</td>
                    <td className="px-4 py-3 tabular-nums">{formatPrice(order.amount, order.currency)}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-muted">
                      {orderedOn.format(new Date(order.created_at))}
                    </td>
                    <td className="px-4 py-3 text-right">
                      <MarkReceived order={order} onDone={setNotice} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="flex flex-col gap-3 md:hidden">
            {list.map((order) => (
              <li
                key={order.order_id}
                className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium">{order.name || "—"}</p>
                  <p className="truncate text-sm text-muted">{order.email}</p>
                </div>
                <p className="text-sm">
                  {order.plan_title} · {formatPrice(order.amount, order.currency)}
                </p>
                <p className="text-xs text-muted">Ordered {orderedOn.format(new Date(order.created_at))}</p>
                <div>
                  <MarkReceived order={order} onDone={setNotice} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {orders.isError && orders.data ? <Banner tone="warning">{errorMessage(orders.error)}</Banner> : null}
    </div>
  );
}

import type { AdminReview, ReviewKind, ReviewStatus } from "@hearth/contract";
import { Navigate } from "@tanstack/react-router";
import { ClipboardCheck, RotateCw } from "lucide-react";
import { Tabs } from "radix-ui";
import { useState } from "react";
import { type ReviewAction, useReviewAction, useReviews } from "../../features/moderation/api.ts";
import { AuditLog } from "../../features/moderation/audit-log.tsx";
import { kindLabel } from "../../features/moderation/labels.ts";
import { ReviewActions } from "../../features/moderation/review-actions.tsx";
import { DeleteReviewedDialog, RejectDialog } from "../../features/moderation/review-dialogs.tsx";
import { ReviewList } from "../../features/moderation/review-list.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Select } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

const tab =
  "rounded-md px-3 py-1.5 text-sm font-medium text-muted transition hover:text-fg " +
  "data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm";

function Reviews() {
  const [status, setStatus] = useState<ReviewStatus>("open");
  const [kind, setKind] = useState<ReviewKind | "">("");
  const reviews = useReviews(status, kind || undefined);
  const action = useReviewAction();
  const [notice, setNotice] = useState("");
  const [rejecting, setRejecting] = useState<AdminReview | null>(null);
  const [deleting, setDeleting] = useState<AdminReview | null>(null);
  const list = reviews.data?.pages.flatMap((page) => page.reviews) ?? [];

  const run = (a: ReviewAction, done: string) => {
    setNotice("");
    action.mutate(a, { onSuccess: () => setNotice(done) });
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-40 flex-col gap-1.5">
          <Label htmlFor="review-status">Status</Label>
          <Select
            id="review-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as ReviewStatus)}
          >
            <option value="open">Open</option>
            <option value="closed">Closed</option>
          </Select>
        </div>
        <div className="flex min-w-40 flex-col gap-1.5">
          <Label htmlFor="review-kind">Kind</Label>
          <Select id="review-kind" value={kind} onChange={(e) => setKind(e.target.value as ReviewKind | "")}>
            <option value="">All kinds</option>
            {(Object.keys(kindLabel) as ReviewKind[]).map((k) => (
              <option key={k} value={k}>
                {kindLabel[k]}
              </option>
            ))}
          </Select>
        </div>
      </div>

      <p role="status" className={notice ? "text-sm text-success" : "sr-only"}>
        {notice}
      </p>
      {action.error ? (
        <Banner tone="danger" title="That didn't work">
          {errorMessage(action.error)}
        </Banner>
      ) : null}

      {reviews.isPending ? (
        <PageSpinner label="Loading reviews" />
      ) : reviews.isError && !reviews.data ? (
        <Banner
          tone="danger"
          title="Couldn't load reviews"
          action={
            <Button size="sm" variant="outline" onClick={() => void reviews.refetch()}>
              <RotateCw aria-hidden />
              Try again
            </Button>
          }
        >
          {errorMessage(reviews.error)}
        </Banner>
      ) : list.length === 0 ? (
        <EmptyState
          icon={ClipboardCheck}
          title={status === "open" ? "Nothing to review" : "No closed reviews"}
          headingLevel={2}
        >
          {status === "open"
            ? "New and edited public chatbots, reports and flagged messages appear here."
            : "Reviews you close are kept here."}
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <ReviewList
            reviews={list}
            actions={(review) => (
              <ReviewActions review={review} onAction={run} onReject={setRejecting} onDelete={setDeleting} />
            )}
          />
          {reviews.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              loading={reviews.isFetchingNextPage}
              onClick={() => void reviews.fetchNextPage()}
            >
              Load more
            </Button>
          ) : null}
        </div>
      )}

      <RejectDialog
        review={rejecting}
        onOpenChange={(open) => (open ? null : setRejecting(null))}
        onDone={setNotice}
      />
      <DeleteReviewedDialog
        review={deleting}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        onDone={setNotice}
      />
    </div>
  );
}

/**
 * /admin/reviews (accounts-billing-admin §2.2): the review table and the audit log. The route
 * table asks only for a login (as the spec does); the tools are administrators', so anyone else
 * is sent to /accessDenied like a failed route permission.
 */
export default function AdminReviewsScreen() {
  const me = useMe();
  if (!me?.permissions.includes("admin")) return <Navigate to="/accessDenied" replace />;
  return (
    <Page>
      <PageHeader
        title="Reviews"
        description="New and edited public chatbots, members' reports and flagged messages."
      />
      <Tabs.Root defaultValue="reviews" className="flex flex-col gap-5">
        <Tabs.List aria-label="Moderation" className="inline-flex w-fit gap-1 rounded-lg bg-surface-2 p-1">
          <Tabs.Trigger value="reviews" className={tab}>
            Review table
          </Tabs.Trigger>
          <Tabs.Trigger value="audit" className={tab}>
            Audit log
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="reviews">
          <Reviews />
        </Tabs.Content>
        <Tabs.Content value="audit">
          <AuditLog />
        </Tabs.Content>
      </Tabs.Root>
    </Page>
  );
}

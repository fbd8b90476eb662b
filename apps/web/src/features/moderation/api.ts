import {
  type ActionTaken,
  type AdminCharacterUpdate,
  AUDIT_PAGE_SIZE,
  moderationEndpoints,
  REVIEW_PAGE_SIZE,
  type ReportCharacterRequest,
  type ReportMessageRequest,
  type ReviewKind,
  type ReviewStatus,
} from "@hearth/contract";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

const reviewsKey = ["admin", "reviews"] as const;
const auditKey = ["admin", "audit-log"] as const;

/** The review table, a page at a time (newest first). */
export function useReviews(status: ReviewStatus, kind: ReviewKind | undefined) {
  return useInfiniteQuery({
    queryKey: [...reviewsKey, status, kind ?? "all"],
    queryFn: ({ pageParam, signal }) =>
      call(moderationEndpoints.listReviews, {
        query: { status, kind, limit: REVIEW_PAGE_SIZE, cursor: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: auditKey,
    queryFn: ({ pageParam, signal }) =>
      call(moderationEndpoints.auditLog, { query: { limit: AUDIT_PAGE_SIZE, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** One moderator action on a review's bot. */
export type ReviewAction =
  | { kind: "update"; characterId: string; reviewId: string; change: Omit<AdminCharacterUpdate, "review_id"> }
  | { kind: "delete"; characterId: string; reviewId: string }
  | { kind: "close"; reviewId: string; action: ActionTaken };

/** Runs an action, then refreshes the table, the audit log and any cached view of the bot. */
export function useReviewAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: ReviewAction) => {
      if (action.kind === "update") {
        await call(moderationEndpoints.updateCharacter, {
          params: { id: action.characterId },
          body: { ...action.change, review_id: action.reviewId },
        });
      } else if (action.kind === "delete") {
        await call(moderationEndpoints.deleteCharacter, {
          params: { id: action.characterId },
          query: { review_id: action.reviewId },
        });
      } else {
        await call(moderationEndpoints.updateReview, {
          params: { id: action.reviewId },
          body: { status: "closed", action_taken: action.action },
        });
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: reviewsKey });
      void queryClient.invalidateQueries({ queryKey: auditKey });
      void queryClient.invalidateQueries({ queryKey: ["characters"] });
    },
  });
}

export const reportCharacter = (body: ReportCharacterRequest) =>
  call(moderationEndpoints.reportCharacter, { body });

export const reportMessage = (body: ReportMessageRequest) =>
  call(moderationEndpoints.reportMessage, { body });

import {
  billingEndpoints,
  type CreateCoupon,
  checkoutEndpoints,
  type GrantSubscription,
} from "@hearth/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

export const pendingOrdersQuery = queryOptions({
  queryKey: ["admin", "orders", "pending"],
  queryFn: ({ signal }) => call(checkoutEndpoints.pendingOrders, { signal }),
});

export const couponsQuery = queryOptions({
  queryKey: ["admin", "coupons"],
  queryFn: ({ signal }) => call(checkoutEndpoints.coupons, { signal }),
});

/** "Mark received": the manual payment arrived and the member's period starts. */
export function useMarkReceived() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => call(checkoutEndpoints.markReceived, { params: { orderId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingOrdersQuery.queryKey }),
  });
}

export function useCreateCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCoupon) => call(checkoutEndpoints.createCoupon, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: couponsQuery.queryKey }),
  });
}

export function useDeleteCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(checkoutEndpoints.deleteCoupon, { params: { code } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: couponsQuery.queryKey }),
  });
}

/** The manual provider's grant: months paid some other way, or gifted. */
export function useGrantMonths() {
  return useMutation({
    mutationFn: (body: GrantSubscription) => call(billingEndpoints.grant, { body }),
  });
}

import {
  grantSubscription,
  planList,
  stickySubscriptions,
  subscription,
  subscriptionActionRequest,
  subscriptionActionResult,
} from "../billing.ts";
import { endpoint } from "../endpoint.ts";

/** Billing (issue 13): plans now; subscribe, checkout and the portal follow. */
export const billingEndpoints = {
  plans: endpoint({
    method: "GET",
    path: "/api/plans",
    summary: "The paid plans with their roles, periods, prices, features and annual tagline",
    tag: "Billing",
    access: "anyone",
    response: planList,
  }),
  sticky: endpoint({
    method: "GET",
    path: "/api/subscriptions/sticky",
    summary: "The member's subscription for the portal: an array whose first item is it (empty without one)",
    tag: "Billing",
    access: "member",
    response: stickySubscriptions,
  }),
  act: endpoint({
    method: "PUT",
    path: "/api/subscriptions/sticky",
    summary: "Cancel, uncancel, change plan, change card or charge rebill the member's subscription",
    tag: "Billing",
    access: "member",
    body: subscriptionActionRequest,
    response: subscriptionActionResult,
  }),
  grant: endpoint({
    method: "POST",
    path: "/api/admin/subscriptions",
    summary: "Administrators: record months paid outside Hearth or gifted (the manual provider)",
    tag: "Billing",
    access: "admin",
    body: grantSubscription,
    response: subscription,
  }),
};

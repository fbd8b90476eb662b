import type { AccountStatus, AdminUser, Restriction } from "@hearth/contract";
import type { BadgeTone } from "../../ui/badge.tsx";

export const statusLabel: Record<AccountStatus, string> = {
  active: "Active",
  cancelled: "Cancelled",
  grace: "Payment failed (grace)",
  expired: "Expired",
  inactive: "Not subscribed",
};

export const statusTone: Record<AccountStatus, BadgeTone> = {
  active: "success",
  cancelled: "neutral",
  grace: "warning",
  expired: "neutral",
  inactive: "neutral",
};

export const restrictionLabel: Record<Restriction, string> = {
  none: "None",
  limited: "Limited access",
  temporary: "Temporarily restricted",
  complete: "Suspended",
};

export const restrictionTone: Record<Restriction, BadgeTone> = {
  none: "neutral",
  limited: "warning",
  temporary: "danger",
  complete: "danger",
};

/** The line under a user's name: @username, else email, else that it's a guest. */
export function userHandle(user: AdminUser): string {
  if (user.username) return `@${user.username}`;
  if (user.email) return user.email;
  return user.is_guest ? "Guest session" : "No email";
}

const joinedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
export function joinedOn(user: AdminUser): string {
  const date = new Date(user.created_at);
  return Number.isNaN(date.getTime()) ? "" : joinedFormat.format(date);
}

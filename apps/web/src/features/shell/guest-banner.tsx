import { Link } from "@tanstack/react-router";
import { Button } from "../../ui/button.tsx";

/** Shown on every page of a guest session (chat-and-characters §1). */
export function GuestBanner() {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-b border-warning/30 bg-warning-soft px-4 py-2.5 text-center text-sm"
    >
      <p>You're chatting as a guest. Your chats are not saved.</p>
      <Button asChild size="sm">
        <Link to="/sign-up">Sign Up Free</Link>
      </Button>
    </div>
  );
}

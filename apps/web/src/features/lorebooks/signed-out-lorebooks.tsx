import { BookOpen } from "lucide-react";
import { AccountRequired } from "../../ui/account-required.tsx";

/** Guests and signed-out visitors keep no lorebooks: the pages offer a free account instead. */
export function SignedOutLorebooks({ redirectTo }: { redirectTo: string }) {
  return (
    <AccountRequired
      pageTitle="Lorebooks"
      icon={BookOpen}
      title="Lorebooks come with a free account"
      redirectTo={redirectTo}
    >
      A lorebook holds the places, people and rules of a world. Sign up to write or import yours and attach
      them to your chats.
    </AccountRequired>
  );
}

import { UsersRound } from "lucide-react";
import { AccountRequired } from "../../ui/account-required.tsx";

/** Guests have no personas (§6): the Personas pages offer a free account instead. */
export function SignedOutPersonas({ title, redirectTo }: { title: string; redirectTo: string }) {
  return (
    <AccountRequired
      pageTitle={title}
      icon={UsersRound}
      title="Personas come with a free account"
      redirectTo={redirectTo}
    >
      A persona is who you are in a chat: a name, a picture and a few highlights that characters know you by.
      Sign up to create yours and switch between them in any chat.
    </AccountRequired>
  );
}

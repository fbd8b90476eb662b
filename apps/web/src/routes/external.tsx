import { Link } from "@tanstack/react-router";
import { Handshake } from "lucide-react";
import { useAppConfig, useMe } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page } from "../ui/page.tsx";

/** /external: where a partner's visitors land; signed in, they go on to chat, else they make an account. */
export default function ExternalScreen() {
  const { brand } = useAppConfig();
  const me = useMe();
  const member = me !== null && !me.is_guest;
  return (
    <Page width="narrow">
      <EmptyState
        icon={Handshake}
        title={`Welcome to ${brand.name}`}
        headingLevel={2}
        action={
          <Button asChild>
            <Link to={member ? "/" : "/external/signup"}>
              {member ? "Start chatting" : "Create your account"}
            </Link>
          </Button>
        }
      >
        {member
          ? `You are signed in as ${me.name}.`
          : "You came from one of our partners. One step and you are in."}
      </EmptyState>
    </Page>
  );
}

import { LinkScreen } from "../features/pledges/pledge-screens.tsx";

/** /link/{pledge_service}: starts linking, and the authorization return (features/pledges). */
export default function Route() {
  return <LinkScreen />;
}

import { PledgeWelcomeScreen } from "../features/pledges/pledge-screens.tsx";

/** /pledge/welcome: the thank-you for new patrons (features/pledges). */
export default function Route() {
  return <PledgeWelcomeScreen />;
}

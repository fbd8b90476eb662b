import { LinkResultScreen } from "../features/pledges/pledge-screens.tsx";

/** /link/{pledge_service}/{transientId}: the linking result (features/pledges). */
export default function Route() {
  return <LinkResultScreen />;
}

import { SubscribeOld } from "../features/subscribe/subscribe-old.tsx";

/** /subscribeOld (accounts-billing-admin §2.2): the older single-column subscribe layout, open. */
export default function SubscribeOldScreen() {
  return <SubscribeOld />;
}

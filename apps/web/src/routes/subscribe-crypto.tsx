import { SubscribeCrypto } from "../features/subscribe/crypto.tsx";

/** /subscribe-crypto (accounts-billing-admin §2.2), open. */
export default function SubscribeCryptoScreen() {
  return <SubscribeCrypto />;
}

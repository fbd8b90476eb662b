import { RecommendedScreen } from "../features/recommendations/recommended-screen.tsx";

/** /recommended (open) and /recommended/mine (view_my_chat_bots): accounts-billing-admin §2.1. */
export default function RecommendedRoute() {
  return <RecommendedScreen />;
}

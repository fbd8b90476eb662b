import { SaleScreen } from "../features/sale/sale-screen.tsx";

/** /sale: the birthday sale page (features/sale). */
export default function SaleRoute() {
  return <SaleScreen />;
}

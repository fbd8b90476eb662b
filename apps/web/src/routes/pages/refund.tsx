import { MarkdownPage } from "./markdown-page.tsx";

export default function RefundPage() {
  return <MarkdownPage slug="refund" what="the refund policy" />;
}

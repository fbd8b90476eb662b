import { MarkdownPage } from "./markdown-page.tsx";

export default function PrivacyPage() {
  return <MarkdownPage slug="privacy" what="the privacy policy" />;
}

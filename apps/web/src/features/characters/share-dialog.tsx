import { Check, Copy, Share2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { chatBuilt, chatHref, profileHref } from "./links.ts";

/** Share this Chatbot (chat-and-characters §2): a link with a copy button; chats stay private. */
export function ShareDialog({ characterId, name }: { characterId: string; name: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  // The spec shares the chat page; until chat exists the profile is the page to open.
  const link = `${window.location.origin}${chatBuilt() ? chatHref(characterId) : profileHref(characterId)}`;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };

  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Share2 aria-hidden />
          Share
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Share this Chatbot"
        description={`Anyone with this link can chat with ${name}. Your own chats with it remain private.`}
      >
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            readOnly
            aria-label="Link to share"
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button onClick={copy} className="sm:w-32">
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            {copied ? "Copied!" : "Copy link"}
          </Button>
        </div>
        <p aria-live="polite" className="mt-2 min-h-5 text-sm text-muted">
          {failed
            ? "Copying isn't allowed here: select the link and copy it yourself."
            : copied
              ? "Link copied."
              : ""}
        </p>
      </DialogContent>
    </Dialog>
  );
}

import { Check, Copy, Share2 } from "lucide-react";
import { useCopy } from "../../lib/use-copy.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { chatBuilt, chatHref, profileHref } from "./links.ts";

/**
 * Share this Chatbot (chat-and-characters §2): a link with a copy button; chats stay private.
 * The profile shows it as a labelled button, the chat header as an icon.
 */
export function ShareDialog({
  characterId,
  name,
  compact = false,
}: {
  characterId: string;
  name: string;
  compact?: boolean;
}) {
  const { copied, failed, copy: copyText } = useCopy();
  // The spec shares the chat page; until chat exists the profile is the page to open.
  const link = `${window.location.origin}${chatBuilt() ? chatHref(characterId) : profileHref(characterId)}`;
  const copy = () => copyText(link);

  return (
    <Dialog>
      <DialogTrigger asChild>
        {compact ? (
          <Button variant="ghost" size="icon" aria-label="Share this Chatbot" title="Share">
            <Share2 aria-hidden />
          </Button>
        ) : (
          <Button variant="outline">
            <Share2 aria-hidden />
            Share
          </Button>
        )}
      </DialogTrigger>
      <DialogContent
        title="Share this Chatbot"
        description={`Anyone with this link can start their own chat with ${name}. Your chats remain private.`}
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

import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { type CreatorRef, creatorLabel, useBlockCreator, useUnblockCreator } from "./api.ts";

interface DialogProps {
  /** The creator to block or unblock; null keeps the dialog closed. */
  creator: CreatorRef | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the server agreed (the lists are being read again). */
  onDone?: () => void;
}

/** 'Block Creator' (chat-and-characters §2 modals): says what blocking does before it happens. */
export function BlockCreatorDialog({ creator, open, onOpenChange, onDone }: DialogProps) {
  const block = useBlockCreator();
  const close = (next: boolean) => {
    if (!next) block.reset();
    onOpenChange(next);
  };
  return (
    <Dialog open={open && creator !== null} onOpenChange={close}>
      {creator ? (
        <DialogContent
          title="Block Creator"
          description={`Block ${creatorLabel(creator)}? All of their chatbots are hidden from you, and you can't chat with any of them, this one included, until you unblock them. You can unblock them any time from Blocked creators.`}
        >
          {block.isError ? <Banner tone="danger">{errorMessage(block.error)}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="danger"
              loading={block.isPending}
              onClick={() =>
                block.mutate(creator.id, {
                  onSuccess: () => {
                    close(false);
                    onDone?.();
                  },
                })
              }
            >
              Block Creator
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** 'Unblock Creator' (chat-and-characters §2 modals; the Blocked creators page's confirmation). */
export function UnblockCreatorDialog({ creator, open, onOpenChange, onDone }: DialogProps) {
  const unblock = useUnblockCreator();
  const close = (next: boolean) => {
    if (!next) unblock.reset();
    onOpenChange(next);
  };
  return (
    <Dialog open={open && creator !== null} onOpenChange={close}>
      {creator ? (
        <DialogContent
          title="Unblock Creator"
          description={`Unblock ${creatorLabel(creator)}? Their chatbots show up for you again and you can chat with them.`}
        >
          {unblock.isError ? <Banner tone="danger">{errorMessage(unblock.error)}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              loading={unblock.isPending}
              onClick={() =>
                unblock.mutate(creator.id, {
                  onSuccess: () => {
                    close(false);
                    onDone?.();
                  },
                })
              }
            >
              Unblock Creator
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

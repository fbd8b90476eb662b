import { Mail } from "lucide-react";
import { useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { useDeleteCharacter } from "./api.ts";
import { deleteDraft } from "./drafts.ts";

interface DeleteCharacterDialogProps {
  character: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}

/**
 * Confirms a delete. Without delete_character the server answers 403 and the spec's contact-us
 * modal takes the dialog's place.
 */
export function DeleteCharacterDialog({ character, onOpenChange, onDeleted }: DeleteCharacterDialogProps) {
  const me = useMe();
  const remove = useDeleteCharacter();
  const [contactUs, setContactUs] = useState(false);
  const mayDelete = me?.permissions.includes("delete_character") ?? false;

  const close = (open: boolean) => {
    if (!open) {
      setContactUs(false);
      remove.reset();
    }
    onOpenChange(open);
  };

  const confirm = () => {
    if (!character) return;
    remove.mutate(character.id, {
      onSuccess: () => {
        if (me) deleteDraft(me.id, character.id);
        close(false);
        onDeleted?.();
      },
      onError: (error) => {
        if (isApiRequestError(error) && error.status === 403) setContactUs(true);
      },
    });
  };

  return (
    <Dialog open={character !== null} onOpenChange={close}>
      {character && (contactUs || !mayDelete) ? (
        <DialogContent title="Contact us to delete this chatbot">
          <p className="text-sm leading-relaxed text-muted">
            Your account can't delete chatbots itself. Write to the people who run this server and ask them to
            delete <span className="font-medium text-fg">{character.name}</span>; meanwhile you can make it
            private in the editor.
          </p>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
            <Button asChild>
              <a href={`mailto:?subject=${encodeURIComponent(`Please delete my chatbot ${character.id}`)}`}>
                <Mail aria-hidden />
                Contact us
              </a>
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : character ? (
        <DialogContent
          title={`Delete ${character.name}?`}
          description="The chatbot, its profile and its picture are removed for everyone. This can't be undone."
        >
          {remove.error ? <Banner tone="danger">{errorMessage(remove.error)}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="danger" loading={remove.isPending} onClick={confirm}>
              Delete chatbot
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

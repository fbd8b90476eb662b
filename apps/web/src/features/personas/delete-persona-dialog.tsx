import type { Persona } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { deletePersona, personaErrorMessage } from "./api.ts";

/**
 * 'Delete Persona' (§2 modals). The default persona is refused by the server with the spec's
 * message (§5), shown here.
 */
export function DeletePersonaDialog({ persona, onClose }: { persona: Persona | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ text: string; refused: boolean } | null>(null);

  const close = () => {
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (!persona) return;
    setPending(true);
    setError(null);
    try {
      await deletePersona(queryClient, persona.id);
      close();
    } catch (caught) {
      const refused = isApiRequestError(caught) && caught.errorType === "default_persona_delete";
      setError({ text: personaErrorMessage(caught), refused });
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={persona !== null} onOpenChange={(open) => !open && close()}>
      {persona ? (
        <DialogContent
          title="Delete Persona"
          description={`${persona.name} is removed for good. Chats that used it continue with your default persona.`}
        >
          {error ? (
            <Banner
              tone={error.refused ? "warning" : "danger"}
              title={error.refused ? "Can't delete" : undefined}
            >
              {error.text}
            </Banner>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{error?.refused ? "Close" : "Cancel"}</Button>
            </DialogClose>
            {error?.refused ? null : (
              <Button variant="danger" loading={pending} onClick={() => void confirm()}>
                Delete Persona
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

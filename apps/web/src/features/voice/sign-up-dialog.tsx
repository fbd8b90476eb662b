import { Link, useLocation } from "@tanstack/react-router";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";

/** Guests have no voice (§6): the sign-up prompt, back to this chat afterwards. */
export function SignUpForVoiceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const location = useLocation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      {open ? (
        <DialogContent
          title="Sign up to hear replies"
          description="Voice is for members. Sign up free, then choose a plan with voice to hear the characters speak."
        >
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Not now</Button>
            </DialogClose>
            <Button asChild>
              <Link to="/sign-up" search={{ redirect: location.href }}>
                Sign Up Free
              </Link>
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

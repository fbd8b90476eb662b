import { useCallback, useEffect, useRef } from "react";
import { sendCheckoutExit } from "./api.ts";
import type { ExitStage } from "./rules.ts";

/**
 * §4: abandoning checkout logs an exit event, once: when the member leaves /checkout for another
 * route, or the page goes away (closed, reloaded, another site), without a successful order.
 * Returns `finished()`, to call once the order went through (nothing is sent after it).
 */
export function useExitEvent(planId: string, stage: () => ExitStage): { finished: () => void } {
  const done = useRef(false);
  const current = useRef({ planId, stage });
  current.current = { planId, stage };
  const mounted = useRef(false);

  useEffect(() => {
    mounted.current = true;
    const send = () => {
      if (done.current) return;
      done.current = true;
      sendCheckoutExit({ plan_id: current.current.planId, stage: current.current.stage() });
    };
    window.addEventListener("pagehide", send);
    return () => {
      mounted.current = false;
      window.removeEventListener("pagehide", send);
      // React's development mode unmounts and mounts again at once: only a real leave sends.
      setTimeout(() => {
        if (!mounted.current) send();
      }, 0);
    };
  }, []);

  const finished = useCallback(() => {
    done.current = true;
  }, []);
  return { finished };
}

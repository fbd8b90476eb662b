import { Link } from "@tanstack/react-router";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { BrandMark } from "./brand-mark.tsx";

/** Small on purpose: it links only to pages that exist. */
export function Footer() {
  const config = useAppConfig();
  const me = useMe();
  const member = me !== null && !me.is_guest;
  const linkClass = "rounded text-muted transition hover:text-fg";

  return (
    <footer className="border-t border-border px-4 py-8 text-sm sm:px-6">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 sm:flex-row sm:justify-between">
        <div className="flex max-w-sm flex-col gap-2">
          <BrandMark />
          <p className="text-muted">Chat and roleplay with AI characters, on a server you control.</p>
        </div>
        <nav aria-label="Resources" className="flex flex-col gap-2">
          <h2 className="font-medium">Resources</h2>
          <ul className="flex flex-col gap-1.5">
            <li>
              <Link to="/" className={linkClass}>
                Home
              </Link>
            </li>
            {member ? null : (
              <>
                <li>
                  <Link to="/sign-up" className={linkClass}>
                    Create an account
                  </Link>
                </li>
                <li>
                  <Link to="/sign-in" className={linkClass}>
                    Sign in
                  </Link>
                </li>
              </>
            )}
          </ul>
        </nav>
      </div>
      <p className="mx-auto mt-8 w-full max-w-6xl text-xs text-muted">Powered by Hearth {config.version}</p>
    </footer>
  );
}

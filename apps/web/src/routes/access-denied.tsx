import { Link, useRouter } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { Button } from "../ui/button.tsx";

/** Where a failed permission check lands (accounts-billing-admin §2.1). */
export default function AccessDeniedScreen() {
  const router = useRouter();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger">
        <ShieldX aria-hidden className="size-7" />
      </span>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Access denied</h1>
        <p className="max-w-md text-muted">
          Your account doesn't have permission to open that page. If you think it should, ask the people who
          run this server.
        </p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to="/">Go to Home</Link>
        </Button>
        <Button variant="outline" onClick={() => router.history.back()}>
          Go Back
        </Button>
      </div>
    </div>
  );
}

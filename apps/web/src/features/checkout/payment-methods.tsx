import { CreditCard, Landmark } from "lucide-react";
import { cn } from "../../ui/cn.ts";
import type { MethodId } from "./rules.ts";

const icons: Record<MethodId, typeof CreditCard> = { card: CreditCard, manual: Landmark };

/** §2.2 payment method: the methods the server offers, the first chosen by default. */
export function PaymentMethods({
  methods,
  value,
  onChange,
  disabled,
}: {
  methods: readonly { id: MethodId; label: string }[];
  value: MethodId | null;
  onChange: (id: MethodId) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-col gap-2">
      {methods.map((method) => {
        const Icon = icons[method.id];
        return (
          <label
            key={method.id}
            className={cn(
              "flex cursor-pointer items-center gap-3 rounded-lg border p-3 transition has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
              method.id === value ? "border-accent bg-accent-soft" : "border-border hover:bg-surface-2/60",
            )}
          >
            <input
              type="radio"
              name="checkout-method"
              value={method.id}
              checked={method.id === value}
              disabled={disabled}
              onChange={() => onChange(method.id)}
              className="size-4 shrink-0 accent-(--brand-accent)"
            />
            <Icon aria-hidden className="size-4 shrink-0 text-muted" />
            <span className="text-sm font-medium">{method.label}</span>
          </label>
        );
      })}
    </div>
  );
}

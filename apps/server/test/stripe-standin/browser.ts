import type { PaymentIntent } from "./types.ts";

/**
 * What the browser gets from the stand-in: a small Stripe.js (`Stripe(pk).elements().create("card")`
 * and `createPaymentMethod`) whose card element is a plain in-page form (the real one is an iframe)
 * and which posts the card straight to the stand-in with the publishable key, and the 3-D Secure
 * challenge page a PaymentIntent's redirect_to_url points at.
 */
export function stripeJs(apiUrl: string): string {
  return `/* Stripe.js stand-in for tests: not Stripe's code. */
(function () {
  "use strict";
  var API = ${JSON.stringify(apiUrl)};
  var mounted = 0;
  function digits(value) { return String(value || "").replace(/\\D/g, ""); }
  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var d = Number(number.charAt(number.length - 1 - i));
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return number.length >= 12 && sum % 10 === 0;
  }
  function brandOf(n) {
    if (/^4/.test(n)) return "visa";
    if (/^(5[1-5]|2[2-7])/.test(n)) return "mastercard";
    if (/^3[47]/.test(n)) return "amex";
    if (/^(6011|65)/.test(n)) return "discover";
    return "unknown";
  }
  function field(id, label, attrs) {
    var wrap = document.createElement("div");
    wrap.style.cssText = "display:flex;flex-direction:column;gap:0.25rem;min-width:0";
    var lab = document.createElement("label");
    lab.htmlFor = id;
    lab.textContent = label;
    var input = document.createElement("input");
    input.id = id;
    input.type = "text";
    input.inputMode = "numeric";
    input.style.cssText = "font:inherit;color:inherit;background:transparent;border:1px solid currentColor;border-radius:4px;padding:0.4rem;width:100%;box-sizing:border-box";
    for (var k in attrs) input.setAttribute(k, attrs[k]);
    wrap.appendChild(lab);
    wrap.appendChild(input);
    return { wrap: wrap, input: input };
  }
  function createCard() {
    var handlers = {};
    var root = null;
    var inputs = null;
    var touched = { number: false, expiry: false, cvc: false };
    function fire(name, payload) { (handlers[name] || []).forEach(function (h) { h(payload); }); }
    function state() {
      var number = inputs ? digits(inputs.number.value) : "";
      var exp = inputs ? digits(inputs.expiry.value) : "";
      var cvc = inputs ? digits(inputs.cvc.value) : "";
      var month = Number(exp.slice(0, 2));
      var year = exp.length >= 4 ? Number(exp.slice(2)) + (exp.length === 4 ? 2000 : 0) : 0;
      var now = new Date();
      var past = year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1);
      var error = null;
      var numberDone = number.length >= 15 && luhn(number);
      if (number.length >= 16 && !luhn(number)) error = "Your card number is invalid.";
      else if (touched.number && !numberDone && number.length > 0) error = "Your card number is incomplete.";
      else if (exp.length >= 2 && (month < 1 || month > 12)) error = "Your card's expiration date is invalid.";
      else if (exp.length >= 4 && past) error = "Your card's expiration year is in the past.";
      else if (touched.expiry && exp.length > 0 && exp.length < 4) error = "Your card's expiration date is incomplete.";
      else if (touched.cvc && cvc.length > 0 && cvc.length < 3) error = "Your card's security code is incomplete.";
      return {
        elementType: "card",
        empty: number.length + exp.length + cvc.length === 0,
        complete: !error && numberDone && exp.length >= 4 && !past && month >= 1 && month <= 12 && cvc.length >= 3,
        error: error ? { type: "validation_error", message: error } : undefined,
        brand: brandOf(number),
        value: { number: number, month: month, year: year, cvc: cvc },
      };
    }
    function changed() {
      var s = state();
      fire("change", { elementType: s.elementType, empty: s.empty, complete: s.complete, error: s.error, brand: s.brand });
    }
    var element = {
      mount: function (target) {
        var host = typeof target === "string" ? document.querySelector(target) : target;
        if (!host) throw new Error("Stripe.js stand-in: nothing matches " + target + " to mount the card element in.");
        mounted += 1;
        var id = "standin-card-" + mounted;
        root = document.createElement("div");
        root.className = "StripeElement";
        root.setAttribute("role", "group");
        root.setAttribute("aria-label", "Card details");
        root.style.cssText = "display:grid;grid-template-columns:minmax(0,2fr) minmax(0,1fr) minmax(0,1fr);gap:0.5rem";
        var number = field(id + "-number", "Card number", { autocomplete: "cc-number", placeholder: "1234 1234 1234 1234", maxlength: "23" });
        var expiry = field(id + "-expiry", "Expiration date", { autocomplete: "cc-exp", placeholder: "MM / YY", maxlength: "7" });
        var cvc = field(id + "-cvc", "Security code", { autocomplete: "cc-csc", placeholder: "CVC", maxlength: "4" });
        inputs = { number: number.input, expiry: expiry.input, cvc: cvc.input };
        [["number", number], ["expiry", expiry], ["cvc", cvc]].forEach(function (pair) {
          root.appendChild(pair[1].wrap);
          pair[1].input.addEventListener("input", changed);
          pair[1].input.addEventListener("focus", function () { fire("focus", { elementType: "card" }); });
          pair[1].input.addEventListener("blur", function () {
            touched[pair[0]] = true;
            fire("blur", { elementType: "card" });
            changed();
          });
        });
        host.appendChild(root);
        setTimeout(function () { fire("ready", { elementType: "card" }); }, 0);
        return element;
      },
      on: function (name, handler) { (handlers[name] = handlers[name] || []).push(handler); return element; },
      off: function (name, handler) { handlers[name] = (handlers[name] || []).filter(function (h) { return h !== handler; }); return element; },
      unmount: function () { if (root) root.remove(); root = null; inputs = null; return element; },
      destroy: function () { element.unmount(); handlers = {}; },
      focus: function () { if (inputs) inputs.number.focus(); },
      blur: function () { if (document.activeElement && root && root.contains(document.activeElement)) document.activeElement.blur(); },
      clear: function () { if (inputs) { inputs.number.value = ""; inputs.expiry.value = ""; inputs.cvc.value = ""; changed(); } },
      update: function () { return element; },
      _state: state,
    };
    return element;
  }
  function append(form, prefix, value) {
    if (value === undefined || value === null) return;
    if (typeof value === "object") {
      Object.keys(value).forEach(function (k) { append(form, prefix + "[" + k + "]", value[k]); });
      return;
    }
    form.append(prefix, String(value));
  }
  function Stripe(publishableKey) {
    if (typeof publishableKey !== "string" || publishableKey.indexOf("pk_") !== 0) {
      throw new Error("Stripe.js stand-in: Stripe() needs a publishable key (pk_…).");
    }
    var cards = [];
    return {
      elements: function () {
        return {
          create: function (type) {
            if (type !== "card") throw new Error("Stripe.js stand-in: only the card element exists here.");
            var card = createCard();
            cards.push(card);
            return card;
          },
          getElement: function (type) { return type === "card" ? cards[cards.length - 1] || null : null; },
        };
      },
      createPaymentMethod: function (params) {
        var card = params && params.card;
        if (!card || !card._state) {
          return Promise.resolve({ error: { type: "validation_error", message: "Pass the card element as card." } });
        }
        var s = card._state();
        if (!s.complete) {
          var message = s.error ? s.error.message : "Your card number is incomplete.";
          return Promise.resolve({ error: { type: "validation_error", message: message } });
        }
        var form = new URLSearchParams();
        form.append("type", "card");
        form.append("card[number]", s.value.number);
        form.append("card[exp_month]", String(s.value.month));
        form.append("card[exp_year]", String(s.value.year));
        form.append("card[cvc]", s.value.cvc);
        append(form, "billing_details", params.billing_details);
        form.append("key", publishableKey);
        return fetch(API + "/v1/payment_methods", { method: "POST", body: form })
          .then(function (res) {
            return res.json().then(function (json) { return res.ok ? { paymentMethod: json } : { error: json.error }; });
          })
          .catch(function () {
            return { error: { type: "api_connection_error", message: "We could not reach the payment service. Please try again." } };
          });
      },
    };
  }
  window.Stripe = Stripe;
})();
`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;margin:1.5rem;color:#111;background:#fff">
<main>${body}</main>
</body>
</html>`;
}

/** The challenge: two buttons, whose form posts back to the same address. */
export function challengePage(pi: PaymentIntent, action: string): string {
  if (pi.status !== "requires_action") {
    return page(
      "Authentication",
      `<h1>Authentication</h1><p>This payment is not waiting for authentication.</p>`,
    );
  }
  const amount = `${(pi.amount / 100).toFixed(2)} ${pi.currency.toUpperCase()}`;
  return page(
    "3-D Secure authentication",
    `<h1>3-D Secure authentication</h1>
<p>Test page of the Stripe stand-in: confirm the payment of ${escapeHtml(amount)}.</p>
<form method="post" action="${escapeHtml(action)}" style="display:flex;gap:0.75rem;flex-wrap:wrap">
<button type="submit" name="result" value="complete">Complete authentication</button>
<button type="submit" name="result" value="fail">Fail authentication</button>
</form>`,
  );
}

export function finishedPage(): string {
  return page("Authentication", `<h1>Authentication finished</h1><p>You can close this window.</p>`);
}

/** Where the browser goes after the challenge: the return_url with Stripe's query parameters. */
export function returnTo(returnUrl: string, pi: PaymentIntent): string {
  const url = new URL(returnUrl);
  url.searchParams.set("payment_intent", pi.id);
  url.searchParams.set("payment_intent_client_secret", pi.client_secret);
  url.searchParams.set("redirect_status", pi.status === "succeeded" ? "succeeded" : "failed");
  return url.toString();
}

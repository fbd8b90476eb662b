import { endpoint } from "../endpoint.ts";
import { sale } from "../sale.ts";

/** The birthday sale page's data (accounts-billing-admin §2.2, §9). */
export const saleEndpoints = {
  get: endpoint({
    method: "GET",
    path: "/api/sale",
    summary:
      "The running sale: heading, dates, countdown end and the offers checkout applies (404: none now)",
    tag: "Site",
    access: "anyone",
    response: sale,
  }),
};

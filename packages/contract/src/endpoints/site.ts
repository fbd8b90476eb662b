import { me } from "../accounts.ts";
import { endpoint } from "../endpoint.ts";
import { easterCode, externalSignup, markdownPage, pageParams, partnerLogin, siteConfig } from "../site.ts";

/** The site's public configuration, its Markdown pages, the Easter code and partner mode. */
export const siteEndpoints = {
  config: endpoint({
    method: "GET",
    path: "/api/site",
    summary: "Brand, logo, edition, partner mode, footer, sale banner, mobile applications",
    tag: "Site",
    access: "anyone",
    response: siteConfig,
  }),
  page: endpoint({
    method: "GET",
    path: "/api/pages/{slug}",
    summary:
      "A secondary page's Markdown (privacy, terms, refund, 2257, contribute); the operator's file wins",
    tag: "Site",
    access: "anyone",
    params: pageParams,
    response: markdownPage,
  }),
  easterCode: endpoint({
    method: "GET",
    path: "/api/easter-code",
    summary: "The Easter giveaway code, for active premium subscribers only",
    tag: "Site",
    access: "member",
    response: easterCode,
  }),
  partnerLogin: endpoint({
    method: "POST",
    path: "/api/partner/session",
    summary: "Partner mode: sign in with the partner's signed token (sets the session cookie)",
    tag: "Site",
    access: "anyone",
    body: partnerLogin,
    response: me,
  }),
  externalSignup: endpoint({
    method: "POST",
    path: "/api/external/signup",
    summary: "Partner mode: create an external user (name, username) and sign it in",
    tag: "Site",
    access: "anyone",
    body: externalSignup,
    response: me,
    status: 201,
  }),
};

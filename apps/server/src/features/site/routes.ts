import { adEndpoints, saleEndpoints, siteEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import {
  type Auth,
  createExternalUser,
  getViewer,
  partnerAccount,
  refuseRestrictedChanges,
  signUpGate,
  startSession,
  toMe,
  verifyPartnerToken,
} from "../accounts/index.ts";
import { appSettingsOf, privacyNotice } from "./app-settings.ts";
import { readPage } from "./pages.ts";
import { assertCanSeeEasterCode, assertPartnerMode } from "./policy.ts";
import { saleIsOn, saleSettingsOf, toSale } from "./sale-settings.ts";
import { readSiteFile, siteConfigOf } from "./settings.ts";

export interface SiteDeps {
  config: Config;
  db: Db;
  auth: Auth;
}

/**
 * The site's public configuration, its Markdown pages, the Easter code, and partner mode's
 * token login and external sign-up (accounts-billing-admin §1, §2.2, §4).
 */
export async function siteRoutes(app: FastifyInstance, { config, db, auth }: SiteDeps) {
  // Read once at start: a broken site.json stops the start with its reason.
  const file = readSiteFile(config.dataDir);
  const site = siteConfigOf(config, file);
  const sale = saleSettingsOf(config, file.sale);
  refuseRestrictedChanges(app, auth);

  const settings = appSettingsOf(config);
  route(app, adEndpoints.appSettings, async () => settings);

  // The sale has dates: whether it runs is asked at each request.
  route(app, siteEndpoints.config, async () => ({ ...site, sale_active: saleIsOn(sale, new Date()) }));

  route(app, saleEndpoints.get, async () => {
    const now = new Date();
    if (!saleIsOn(sale, now)) throw notFound("There is no sale now.");
    return toSale(sale, now);
  });

  // The privacy page ends with what this configuration does with ads and product events.
  const notice = privacyNotice(config);
  route(app, siteEndpoints.page, async ({ params }) => {
    const markdown = await readPage(config.dataDir, params.slug);
    return {
      slug: params.slug,
      markdown: params.slug === "privacy" ? `${markdown.trimEnd()}\n${notice}` : markdown,
    };
  });

  route(app, siteEndpoints.easterCode, async ({ req }) => {
    assertCanSeeEasterCode(await getViewer(auth, req));
    if (!config.site.easterCode) throw notFound("There is no Easter giveaway now.");
    return { code: config.site.easterCode };
  });

  route(app, siteEndpoints.partnerLogin, async ({ body, reply }) => {
    assertPartnerMode(config);
    const claims = verifyPartnerToken(body.token, config.site.partnerKey);
    const viewer = await partnerAccount(db, claims, config.brand.name);
    await startSession(auth, viewer.id, reply);
    return toMe(viewer);
  });

  const withinSignUps = signUpGate(db, config.signUpsPerDay);
  route(app, siteEndpoints.externalSignup, async ({ req, body, reply }) => {
    assertPartnerMode(config);
    const viewer = await withinSignUps(req, reply, () => createExternalUser(db, body, config.brand.name));
    await startSession(auth, viewer.id, reply);
    return toMe(viewer);
  });
}

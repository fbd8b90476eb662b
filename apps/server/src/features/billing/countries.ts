import { createRequire } from "node:module";
import { stateLabelOf } from "@hearth/contract";
import type { ICountry, IState } from "country-state-city";

/**
 * Countries and their states for the billing address, from country-state-city (a maintained
 * table, never a hand-typed list). Its country and state modules are loaded alone: the package's
 * index also loads every city, about 60 MB more.
 */
const require = createRequire(import.meta.url);
const countryTable: {
  default: { getAllCountries(): ICountry[] };
} = require("country-state-city/lib/cjs/country.js");
const stateTable: {
  default: { getStatesOfCountry(code: string): IState[] };
} = require("country-state-city/lib/cjs/state.js");

export interface CountryEntry {
  code: string;
  name: string;
  has_states: boolean;
  state_label: "State" | "Province";
}

let countries: CountryEntry[] | null = null;

export function allCountries(): CountryEntry[] {
  if (countries) return countries;
  countries = countryTable.default
    .getAllCountries()
    .map((c) => ({
      code: c.isoCode,
      name: c.name,
      has_states: stateTable.default.getStatesOfCountry(c.isoCode).length > 0,
      state_label: stateLabelOf(c.isoCode),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return countries;
}

export function statesOf(country: string): { code: string; name: string }[] {
  return stateTable.default
    .getStatesOfCountry(country)
    .map((s) => ({ code: s.isoCode, name: s.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const isCountry = (code: string) => allCountries().some((c) => c.code === code);

/**
 * The state to record: the one given when the country has states (it must be one of them), or
 * the placeholder §5 uses for countries without states. Null means "a state is required".
 */
export function stateFor(country: string, state: string | null | undefined): string | null {
  const states = statesOf(country);
  if (states.length === 0) return "N/A";
  const given = state?.trim().toUpperCase();
  return given && states.some((s) => s.code.toUpperCase() === given) ? given : null;
}

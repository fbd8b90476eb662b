import {
  type EndpointDef,
  type EndpointInput,
  type EndpointResponse,
  type HttpMethod,
  pathOf,
} from "@hearth/contract";
import { apiRequest } from "./api.ts";

type Query = Record<string, string | number | undefined>;

/**
 * Calls an endpoint through its contract declaration: the path, method, input and answer types
 * all come from the one declaration the server registers, so nothing here is paired by hand.
 */
export function call<D extends EndpointDef>(
  def: D,
  input: EndpointInput<D> & { signal?: AbortSignal },
): Promise<EndpointResponse<D>> {
  return apiRequest<EndpointResponse<D>>(
    pathOf(def.path, input.params as Record<string, string> | undefined),
    {
      method: def.method as HttpMethod,
      query: input.query as Query | undefined,
      body: input.body,
      signal: input.signal,
    },
  );
}

/** TRUST_PROXY in the form Fastify's trustProxy takes it. */
import type { TrustProxy } from '../../config.js';

/** Fastify's trustProxy: a list of proxy addresses as it is, a hop count as a rule on the hop's index. */
export type FastifyTrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * `true` means the nearest hop only, as TRUST_PROXY=true does. A hop count becomes a function:
 * Fastify 5 takes a bare number as "trust no hop at all" (neither X-Forwarded-For nor -Proto), while
 * the contract's count trusts the socket's peer and the entries its proxies appended, hop by hop
 * (index 0 is the socket's peer, 1 the last X-Forwarded-For entry, …), and nothing a client wrote.
 */
export function fastifyTrustProxy(trust: TrustProxy | boolean): FastifyTrustProxy {
  const setting = trust === true ? 1 : trust;
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}

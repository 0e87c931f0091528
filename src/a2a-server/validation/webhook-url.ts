import { withTimeout } from '../../common/with-timeout';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from '../../security/outbound-url-policy';
import { redactedUrl } from '../../security/redacted-url';

/** How long a registration waits on DNS; a name not resolved by then is checked at delivery only. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Why a push notification config's URL could never be delivered to under the SSRF rules, or
 * undefined. A hostname is resolved and each of its addresses checked, as a delivery does; a name
 * that does not resolve (yet, or within LOOKUP_TIMEOUT_MS) is taken, since every delivery resolves
 * and checks it again (which also stops a name rebound to a blocked address later).
 */
export async function webhookUrlProblem(
  policy: OutboundUrlPolicy,
  url: string,
  field: string,
): Promise<string | undefined> {
  if (!URL.canParse(url)) return `${field}: not an absolute URL`;
  const refused = (reason: string) => `${field}: webhook ${redactedUrl(url)} refused: ${reason}`;
  const reason = policy.blockedReasonBeforeLookup(new URL(url));
  if (reason) return refused(reason);
  try {
    await withTimeout(policy.check(url), LOOKUP_TIMEOUT_MS, 'webhook host lookup');
    return undefined;
  } catch (error) {
    return error instanceof OutboundUrlBlockedError ? refused(error.reason) : undefined;
  }
}

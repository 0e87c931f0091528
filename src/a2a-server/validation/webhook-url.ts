import type { OutboundUrlPolicy } from '../../security/outbound-url-policy';
import { redactedUrl } from '../../security/redacted-url';

/**
 * Why a push notification config's URL could never be delivered to under the SSRF rules, or
 * undefined. Decided without DNS, so that a registration never waits on a resolver: a name that
 * resolves to a blocked address is refused at delivery, by the same rules.
 */
export function webhookUrlProblem(policy: OutboundUrlPolicy, url: string, field: string): string | undefined {
  if (!URL.canParse(url)) return `${field}: not an absolute URL`;
  const reason = policy.blockedReasonBeforeLookup(new URL(url));
  return reason && `${field}: webhook ${redactedUrl(url)} refused: ${reason}`;
}

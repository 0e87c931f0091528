/** How long a client is asked to wait before it sends a refused request again (a store outage, a replica stopping): `Retry-After`. */
export const RETRY_AFTER_SECS = 5;

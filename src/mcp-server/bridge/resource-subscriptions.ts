/**
 * Where a connection's `resources/subscribe` subscriptions live: a 2025-era HTTP session's in the
 * shared session store (its GET stream may be on another replica), a stdio connection's with it.
 */
export interface ResourceSubscriptions {
  /** `position`: where the task's event stream stood when subscribed; undefined when the task has ended (nothing will change). */
  add(uri: string, taskId: string, position: string | undefined): Promise<void>;
  remove(uri: string): Promise<void>;
  /** A connected server's resource (`mcp://{server}/{uri}`), which changes as that server says. */
  addUpstream(uri: string): Promise<void>;
}

/** Which URIs are resources of connected servers that can be subscribed to. */
export interface UpstreamSubscriptions {
  subscribable(uri: string): boolean;
}

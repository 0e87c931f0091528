/** The external agent could not be reached, was not discovered (its card unreachable or refused), or answered in error; names the agent. */
export class ExternalAgentUnavailableError extends Error {
  constructor(
    readonly agent: string,
    readonly reason: string,
  ) {
    super(`external agent "${agent}": ${reason}`);
    this.name = 'ExternalAgentUnavailableError';
  }
}

export class UnknownExternalAgentError extends Error {
  constructor(readonly agent: string) {
    super(`no external agent named "${agent}" is configured`);
    this.name = 'UnknownExternalAgentError';
  }
}

/** An agent card Switchboard will not use: not JSON, too large, missing what a client needs. */
export class InvalidAgentCardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAgentCardError';
  }
}

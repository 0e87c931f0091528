/** A reason not to start that the operator can fix: printed as its message alone (no stack), then exit with `exitCode`. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** sysexits.h: the command line was wrong. */
export const EXIT_USAGE = 64;
/** sysexits.h: a configuration problem; the message names the key. */
export const EXIT_CONFIG = 78;
/** sysexits.h: the credentials given are not accepted. */
export const EXIT_NOPERM = 77;
/** sysexits.h: a service needed is not available. */
export const EXIT_UNAVAILABLE = 69;

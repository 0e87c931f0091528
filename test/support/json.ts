/**
 * A parsed JSON body or manifest as a test walks it. Its shape is what the test asserts, so it is not typed
 * ahead: an unknown field fails the assertion that reads it, not the compiler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the test's assertions are the type
export type Json = Record<string, any>;

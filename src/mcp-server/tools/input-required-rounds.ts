import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  CallToolResult,
  inputRequired,
  InputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  ServerContext,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { SwitchboardConfig } from '../../config/config.schema';
import type { UpstreamRequest, UpstreamRequestHandler } from '../../mcp-client/mcp-tool-source.interface';
import { missingCapabilities, modernClientCapabilities } from './ask-caller';

/** An upstream call that runs across a 2026-07-28 caller's rounds. */
type Run = (onrequest: UpstreamRequestHandler, signal: AbortSignal) => Promise<CallToolResult>;

/**
 * Upstream calls of 2026-07-28 callers, which take no server-to-client requests: an upstream's
 * sampling or elicitation request ends the caller's round with `input_required`, the upstream call
 * going on; the caller's retry, carrying its answer and the round's `requestState`, resumes that
 * call (multi round-trip requests). Calls wait here between rounds, so a retry must reach this
 * replica; one not resumed within `tools.timeout_secs` is abandoned. A request the caller did not
 * declare the capability for ends the round with -32021 (SEP-2575), and the upstream call with it.
 */
@Injectable()
export class InputRequiredRounds {
  private readonly calls = new Map<string, ParkedCall>();
  private readonly idleMs: number;

  constructor(config: ConfigService<SwitchboardConfig, true>) {
    this.idleMs = config.get('tools', { infer: true }).timeout_secs * 1000;
  }

  /** Starts `run`, or resumes the call the round's `requestState` names; answers with its result or its next request. */
  async round(ctx: ServerContext, owner: string, run: Run): Promise<CallToolResult | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<string>();
    const id = state ?? randomUUID();
    const call = state === undefined ? this.start(id, owner, run) : this.resume(state, owner, ctx);
    const stopOnLeave = () => this.abandon(id, new Error('the caller left'));
    ctx.mcpReq.signal.addEventListener('abort', stopOnLeave, { once: true });
    try {
      await call.next();
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', stopOnLeave);
    }
    if (call.outcome) {
      this.calls.delete(id);
      if ('error' in call.outcome) throw call.outcome.error;
      return call.outcome.result;
    }
    const { key, request } = call.asking!;
    const missing = missingCapabilities(request, modernClientCapabilities(ctx) ?? {});
    if (missing) {
      // No answer will come: the SDK answers this round with -32021 naming what is missing (its gate on input requests).
      this.abandon(
        id,
        new MissingRequiredClientCapabilityError(
          { requiredCapabilities: missing },
          `The caller did not declare what ${request.method} needs`,
        ),
      );
    } else {
      call.idle = setTimeout(
        () => this.abandon(id, new Error(`the caller did not answer within ${this.idleMs} ms`)),
        this.idleMs,
      );
      call.idle.unref();
    }
    return inputRequired({ inputRequests: { [key]: request }, requestState: id });
  }

  private start(id: string, owner: string, run: Run): ParkedCall {
    const call = new ParkedCall(owner);
    this.calls.set(id, call);
    call.start(run);
    return call;
  }

  private resume(id: string, owner: string, ctx: ServerContext): ParkedCall {
    const call = this.calls.get(id);
    // Another caller's state is as unknown as an expired one.
    if (!call || call.owner !== owner || !call.asking) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'requestState names no tool call waiting for input here: it ended, expired, or waits on another replica',
      );
    }
    clearTimeout(call.idle);
    const answer = ctx.mcpReq.inputResponses?.[call.asking.key];
    // A retry without the answer is asked again.
    if (answer !== undefined) call.answer(answer as object);
    return call;
  }

  private abandon(id: string, reason: Error): void {
    const call = this.calls.get(id);
    this.calls.delete(id);
    call?.stop.abort(reason);
  }
}

/** An upstream call between rounds: either asking the caller something, or ended. */
class ParkedCall {
  readonly stop = new AbortController();
  asking?: { key: string; request: UpstreamRequest; answer: (result: object) => void };
  /** Fails the request being asked when the call is stopped. */
  private fail?: (error: unknown) => void;
  outcome?: { result: CallToolResult } | { error: unknown };
  idle?: NodeJS.Timeout;
  private asked = 0;
  private wake?: () => void;

  constructor(readonly owner: string) {
    this.stop.signal.addEventListener('abort', () => this.fail?.(this.stop.signal.reason), { once: true });
  }

  start(run: Run): void {
    run((request) => this.ask(request), this.stop.signal).then(
      (result) => this.settle({ result }),
      (error: unknown) => this.settle({ error }),
    );
  }

  answer(result: object): void {
    const asking = this.asking!;
    this.asking = undefined;
    asking.answer(result);
  }

  /** Resolves once the call has ended or asks something. */
  async next(): Promise<void> {
    if (this.outcome || this.asking) return;
    await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
  }

  private ask(request: UpstreamRequest): Promise<object> {
    if (this.asking)
      return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'one request to the caller at a time'));
    return new Promise((answer, fail) => {
      this.asking = { key: `input-${++this.asked}`, request, answer };
      this.fail = fail;
      this.wake?.();
    });
  }

  private settle(outcome: ParkedCall['outcome']): void {
    this.outcome = outcome;
    this.wake?.();
  }
}

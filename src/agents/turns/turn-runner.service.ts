import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MetricsService, TurnOutcome } from '../../metrics/metrics.service';
import { OnJob } from '../../queue/on-job.decorator';
import { AgentTurnPayload, JobAttempt, JobName } from '../../queue/queue.constants';
import {
  callContextOf,
  CANCEL_SIGNALS,
  CancelSignals,
  TaskLifecycle,
  TurnNotRecordedError,
  TurnPublisher,
  TurnRecorder,
} from '../../tasks';
import { isTerminal, stateLabel } from '../../common/task-states';
import { AgentRegistry } from '../agent-registry.service';
import type { TurnProgress } from '../agent-executor.interface';
import { inSpan } from '../../tracing/spans';

const UNKNOWN_AGENT = 'unknown';

/** How a recorded turn ended: as this run recorded it, or as the run of a worker that died left it (nothing then ran again). */
function outcomeOf(recorder: TurnRecorder): TurnOutcome {
  const end = recorder.end ?? recorder.task?.status?.state;
  if (end === undefined || end === 'message') return 'message';
  return stateLabel(end, '_') as TurnOutcome;
}

/** What a client is told when the process running a turn stopped with it: nothing else can take it over (embedded mode). */
export const STOPPED_TEXT =
  'Switchboard stopped before this turn ended; in embedded mode a turn lives in that process only, so it cannot go on: send the message again.';

/**
 * Runs agent turns on a worker: rebuilds the SDK's request context from the job, runs the agent's
 * executor against a TurnRecorder, and makes sure every turn ends in a state a client can see:
 * `canceled` when a cancel arrived, `failed` when the executor threw, ended without a final state,
 * when the process stops and the turn with it (the job's `stopping`), or when this job is a re-run
 * after its first worker died mid-turn (the task then keeps everything that worker streamed, saved
 * or not), unless the executor can resume the turn (a gateway agent following a remote task). A
 * turn whose task or events could not be written in time fails its job (never completes with
 * unsaved events); its stream is told, and the task row is settled by the orphaned-task sweep.
 */
@Injectable()
export class TurnRunner {
  private readonly logger = new Logger(TurnRunner.name);

  constructor(
    private readonly agents: AgentRegistry,
    private readonly lifecycle: TaskLifecycle,
    @Inject(CANCEL_SIGNALS) private readonly cancelSignals: CancelSignals,
    private readonly metrics: MetricsService,
  ) {}

  @OnJob(JobName.AgentTurn)
  run(payload: AgentTurnPayload, attempt: JobAttempt): Promise<void> {
    const attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': payload.agent,
      'gen_ai.conversation.id': payload.contextId,
      'switchboard.task.id': payload.taskId,
    };
    return inSpan(
      `invoke_agent ${payload.agent}`,
      () => ({ attributes }),
      () => this.runMeasured(payload, attempt),
    );
  }

  private async runMeasured(payload: AgentTurnPayload, attempt: JobAttempt): Promise<void> {
    const started = performance.now();
    let outcome: TurnOutcome = 'error';
    try {
      outcome = await this.runTurn(payload, attempt);
    } catch (error) {
      if (error instanceof TurnNotRecordedError) outcome = 'not_recorded';
      throw error;
    } finally {
      // An agent this worker does not know (its config differs from the API's) is one label, not many.
      const agent = this.agents.find(payload.agent) ? payload.agent : UNKNOWN_AGENT;
      this.metrics.turnEnded(agent, outcome, (performance.now() - started) / 1000);
    }
    this.logger.log(
      { taskId: payload.taskId, agent: payload.agent, durationMs: Math.round(performance.now() - started), outcome },
      'agent turn ended',
    );
  }

  /** Runs the turn; resolves with how it ended. */
  private async runTurn(payload: AgentTurnPayload, attempt: JobAttempt): Promise<TurnOutcome> {
    const context = callContextOf(payload.caller);
    const request = SendMessageRequest.fromJSON(payload.request);
    const newTaskFirstTurn = payload.newTask === true && !payload.announced && attempt.attemptsStarted === 1;
    const idUnknownUntil = newTaskFirstTurn ? payload.idUnknownUntil : undefined;
    const cancel = await this.cancelSignals.watch(payload.taskId, { idUnknownUntil });
    let recorder: TurnRecorder | undefined;
    try {
      // A task canceled before its turn began may have been recorded canceled already: it is read.
      const unstored =
        newTaskFirstTurn && !cancel.signal.aborted
          ? new RequestContext(request, payload.taskId, payload.contextId, context)
          : undefined;
      const withoutWebhooks = unstored && payload.withWebhook === false;
      const storeBeforeRun = this.agents.find(payload.agent)?.executor.actsOutsideTask ?? false;
      recorder = await this.lifecycle.recordTurn(payload.taskId, context, {
        announced: payload.announced,
        unstored,
        storeBeforeRun,
        idUnknownUntil: withoutWebhooks ? idUnknownUntil : undefined,
      });
      await this.runRecorded(payload, attempt, { request, context, cancel: cancel.signal }, recorder);
      return outcomeOf(recorder);
    } catch (error) {
      if (!(error instanceof TurnNotRecordedError)) throw error;
      this.logger.error(
        { taskId: payload.taskId, agent: payload.agent, err: error },
        'agent turn failed: its task could not be recorded',
      );
      const requestContext = new RequestContext(request, payload.taskId, payload.contextId, context, recorder?.task);
      await this.lifecycle.abandon(
        requestContext,
        { neverStored: error.neverStored || recorder?.stored === false },
        recorder,
      );
      throw error;
    } finally {
      recorder?.release();
      cancel.dispose();
    }
  }

  private async runRecorded(
    payload: AgentTurnPayload,
    attempt: JobAttempt,
    { request, context, cancel }: { request: SendMessageRequest; context: ServerCallContext; cancel: AbortSignal },
    recorder: TurnRecorder,
  ): Promise<void> {
    const existing = recorder.task;
    const rerun = attempt.attemptsStarted > 1;
    const over = rerun
      ? await recorder.catchUp(request.message!.messageId)
      : existing !== undefined && isTerminal(existing);
    // Nothing to run: canceled before the turn began, or ended by the worker that died (its end now streamed).
    if (over) return recorder.settled();
    const requestContext = new RequestContext(request, payload.taskId, payload.contextId, context, existing);
    const end = (state: TaskState, text: string) => this.end(recorder, requestContext, state, text);
    const agent = this.agents.find(payload.agent);
    const progress: TurnProgress = { saved: attempt.progress, save: attempt.saveProgress ?? (async () => undefined) };
    const stops = { cancel, stopping: attempt.stopping };
    if (rerun) {
      const executor = agent?.executor;
      if (!executor?.resume || !recorder.task)
        return end(TaskState.TASK_STATE_FAILED, 'The worker running this task stopped before the turn finished.');
      this.logger.log({ taskId: payload.taskId, agent: payload.agent }, 'agent turn resumed after its worker stopped');
      const resumed = new RequestContext(request, payload.taskId, payload.contextId, context, recorder.task);
      return this.execute(payload, recorder, end, stops, (signal) =>
        executor.resume!({ context: resumed, signal, progress }, recorder),
      );
    }
    if (!agent)
      return end(TaskState.TASK_STATE_FAILED, `No agent named "${payload.agent}" is configured on the worker.`);
    return this.execute(payload, recorder, end, stops, (signal) =>
      agent.executor.run({ context: requestContext, signal, progress }, recorder),
    );
  }

  /**
   * Runs the executor under the task's cancel signal (and the process's `stopping`, where the turn
   * dies with it), and ends the turn in a state a client can see whatever happens.
   */
  private async execute(
    payload: AgentTurnPayload,
    recorder: TurnRecorder,
    end: (state: TaskState, text: string) => Promise<void>,
    { cancel, stopping }: { cancel: AbortSignal; stopping?: AbortSignal },
    executor: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const signal = stopping ? AbortSignal.any([cancel, stopping]) : cancel;
    // Told to stop: canceled, or the process stops.
    const stopped = () =>
      cancel.aborted
        ? end(TaskState.TASK_STATE_CANCELED, 'Task canceled.')
        : end(TaskState.TASK_STATE_FAILED, STOPPED_TEXT);
    if (signal.aborted) return stopped();
    try {
      await executor(signal);
      await recorder.settled();
    } catch (error) {
      if (error instanceof TurnNotRecordedError) throw error;
      if (!signal.aborted) {
        this.logger.warn({ taskId: payload.taskId, agent: payload.agent, err: error }, 'agent turn failed');
        return end(TaskState.TASK_STATE_FAILED, `Agent error: ${(error as Error).message ?? String(error)}`);
      }
    }
    if (signal.aborted) return stopped();
    if (!recorder.ended) await end(TaskState.TASK_STATE_FAILED, 'The agent ended its turn without a final state.');
  }

  /** Publishes the final state (after the task itself, if the turn never got to publish it). */
  private async end(
    recorder: TurnRecorder,
    requestContext: RequestContext,
    state: TaskState,
    text: string,
  ): Promise<void> {
    await recorder.settled();
    if (recorder.ended) return;
    const publish = new TurnPublisher(recorder, requestContext);
    if (!recorder.task) publish.task(requestContext);
    publish.status(state, text);
    await recorder.settled();
  }
}

import { Message, type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { RequestContext, ResultManager, ServerCallContext } from '@a2a-js/sdk/server';
import { MetricsService } from '../../metrics/metrics.service';
import { MemoryTaskStore } from '../../task-store/memory-task-store';
import { MemoryTaskEventStream } from '../events/memory-task-event-stream';
import { partsText } from '../../common/parts';
import { SnapshotBuffer } from './snapshot-buffer';
import { NOT_RECORDED_TEXT, NOT_STORED_TEXT, wasNeverStored } from './turn-not-recorded.error';
import { TurnRecorder } from './turn-recorder';
import { replayTurn } from './turn-replay';

const userMessage = Message.fromJSON({ messageId: 'm1', contextId: 'c1', taskId: 't1', role: 'ROLE_USER', parts: [] });

describe('TurnRecorder', () => {
  const metrics = new MetricsService();
  let stream: MemoryTaskEventStream;
  let context: ServerCallContext;
  let requestContext: RequestContext;
  beforeEach(() => {
    stream = new MemoryTaskEventStream(100);
    context = new ServerCallContext();
    const request: SendMessageRequest = { tenant: '', message: userMessage, configuration: undefined, metadata: {} };
    requestContext = new RequestContext(request, 't1', 'c1', context);
  });

  /** A recorder of the turn of task t1 on the memory stores. */
  const recorder = () =>
    new TurnRecorder(
      {
        store: new MemoryTaskStore(),
        stream,
        webhooks: { notify: async () => undefined, close: () => undefined },
        writeRetry: { baseMs: 0, maxMs: 0, deadlineMs: 0 },
        metrics,
      },
      't1',
      context,
      undefined,
    );

  /** The task as the SDK's ResultManager folds the turn's stream into it: what a send waiting on the turn answers with. */
  async function taskFromStream(): Promise<Task> {
    const snapshot = new SnapshotBuffer(undefined);
    await replayTurn(stream, 't1', new ResultManager(snapshot, context));
    if (!snapshot.current) throw new Error('the stream holds no turn');
    return snapshot.current;
  }

  describe('abandon', () => {
    it('tells the stream a task never stored failed, saying so in its metadata as well as in its text', async () => {
      await recorder().abandon(requestContext, { neverStored: true });
      const task = await taskFromStream();
      expect({ state: task.status?.state, text: partsText(task.status?.message?.parts ?? []) }).toEqual({
        state: TaskState.TASK_STATE_FAILED,
        text: NOT_STORED_TEXT,
      });
      expect(wasNeverStored(task)).toBe(true);
    });

    it('tells the stream a task whose turn could not be recorded failed, not marking it never stored', async () => {
      await recorder().abandon(requestContext, { neverStored: false });
      const task = await taskFromStream();
      expect({ state: task.status?.state, text: partsText(task.status?.message?.parts ?? []) }).toEqual({
        state: TaskState.TASK_STATE_FAILED,
        text: NOT_RECORDED_TEXT,
      });
      expect(wasNeverStored(task)).toBe(false);
    });
  });
});

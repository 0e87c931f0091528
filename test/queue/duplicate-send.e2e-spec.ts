/**
 * A turn is queued under a job id made of its task and message ids: a message sent again (a client
 * retrying a send whose answer it lost) queues nothing more, is answered with the task as it
 * stands, and its turn runs once, on real BullMQ and Redis with a separate worker.
 */
import { Role, SendMessageConfiguration, TaskState } from '@a2a-js/sdk';
import type { INestApplicationContext } from '@nestjs/common';
import { createWorkerApp } from '../../src/app.factory';
import { JOB_QUEUE, type JobQueue } from '../../src/queue/job-queue.interface';
import { QueueName } from '../../src/queue/queue.constants';
import { eventually } from '../support/eventually';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';

describe('a message sent twice', () => {
  let service: DurableTestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    service = await startDurableTestApp({ SWITCHBOARD_WORKER_IN_API: 'false' });
  });

  afterAll(async () => {
    await worker?.close();
    await service?.close();
  });

  it('queues and runs its turn once, and answers the second send with the task as it stands', async () => {
    const client = await sdkClient(service.url, 'ask', 'JSONRPC');
    const queue = service.app.get<JobQueue>(JOB_QUEUE);
    const first = userMessage('where to?');
    first.configuration = SendMessageConfiguration.fromJSON({ returnImmediately: true });
    const task = asTask(await client.sendMessage(first));

    const again = asTask(await client.sendMessage({ ...first, message: { ...first.message!, taskId: task.id } }));
    expect(again).toMatchObject({ id: task.id, status: { state: TaskState.TASK_STATE_SUBMITTED } });
    expect((await queue.counts())[QueueName.AgentTurns].waiting).toBe(1);

    worker = await createWorkerApp(service.config);
    await worker.init();
    await eventually(
      async () => (await queue.counts())[QueueName.AgentTurns],
      (counts) => counts.waiting + counts.active + counts.delayed === 0,
    );
    const stored = await client.getTask({ id: task.id, tenant: '' });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(
      stored.history.filter((message) => message.role === Role.ROLE_USER).map((message) => message.messageId),
    ).toEqual([first.message!.messageId]);
    // Each run of the turn asks once, in a message of its own.
    const questions = new Set(
      [...stored.history, stored.status!.message!]
        .filter((message) => message.role === Role.ROLE_AGENT)
        .map((message) => message.messageId),
    );
    expect(questions.size).toBe(1);
  });
});

import { type Message, Role, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
  DefaultExecutionEventBus,
  RequestContext,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { TurnPublisher } from './turn-publisher';

describe('TurnPublisher', () => {
  it('carries only the ids of the request context it is given into events and messages', () => {
    const userMessage: Message = {
      messageId: 'm1',
      contextId: 'c1',
      taskId: 't1',
      role: Role.ROLE_USER,
      parts: [],
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    };
    const request: SendMessageRequest = { tenant: '', message: userMessage, configuration: undefined, metadata: {} };
    const requestContext = new RequestContext(request, 't1', 'c1', new ServerCallContext());
    const bus = new DefaultExecutionEventBus();
    const events: AgentExecutionEvent[] = [];
    bus.on('event', (event) => events.push(event));

    new TurnPublisher(bus, requestContext).status(TaskState.TASK_STATE_COMPLETED, 'done');

    const [event] = events;
    if (event.kind !== 'statusUpdate') throw new Error(`expected a status update, got ${event.kind}`);
    expect(Object.keys(event.data).sort()).toEqual(['contextId', 'metadata', 'status', 'taskId']);
    expect(event.data).toMatchObject({ taskId: 't1', contextId: 'c1' });
    expect(Object.keys(event.data.status!.message!).sort()).toEqual(
      ['contextId', 'extensions', 'messageId', 'metadata', 'parts', 'referenceTaskIds', 'role', 'taskId'].sort(),
    );
  });
});

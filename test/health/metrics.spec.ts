import { Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { bearer, startTestApp, testConfig } from '../support/test-app';

describe('metrics and request ids', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
    await app
      .get<TaskStore>(TASK_STORE)
      .save(
        Task.fromJSON({ id: 'metrics-task', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } }),
        new ServerCallContext(),
      );
  });

  afterAll(() => app?.close());

  it('exports HTTP latency by route template, queue depth and tasks by state', async () => {
    await fetch(`${url}/healthz`);
    const response = await fetch(`${url}/metrics`, { headers: bearer() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await response.text();
    expect(body).toMatch(
      /switchboard_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/,
    );
    expect(body).toMatch(/switchboard_queue_jobs\{queue="agent-turns",state="waiting"\} 0/);
    expect(body).toMatch(/switchboard_tasks\{state="TASK_STATE_WORKING"\} 1/);
    expect(body).toContain('switchboard_process_resident_memory_bytes');
  });

  it('echoes a sane caller request id and makes one up otherwise', async () => {
    const kept = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    const replaced = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { status } from '@grpc/grpc-js';
import type { ServerSurfaceCall } from '@grpc/grpc-js/build/src/server-call';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, type SpanOptions } from '../../tracing/spans';
import { contextOfCarrier } from '../../tracing/trace-context';
import type { A2aEndpoints, AgentEndpoint } from '../a2a-endpoints.service';
import { atEndpoint } from '../call-context';
import { ServiceUnavailableError } from '../service-unavailable.error';
import type { SwitchboardRequestHandler } from '../switchboard-request-handler';
import { GrpcCaller } from './grpc-caller';
import { GrpcRefusal } from './grpc-refusal.error';
import { agentRefusal } from '../../security/access-scope';

/**
 * One gRPC service for every agent: a request's `tenant` names its agent (each card's gRPC interface
 * says which), and none means the default agent, which is all v0.3 (without tenants) reaches. The
 * request goes on to that agent's handler without it, so that tasks are scoped as over the other
 * bindings and any binding sees them, and the call reads that agent's tasks only (atEndpoint). The caller's key must allow the agent, as AgentAccessGuard
 * checks over HTTP; a caller gone mid-stream stops following its task.
 */
export class AgentRoutingHandler implements A2ARequestHandler {
  constructor(private readonly endpoints: A2aEndpoints) {}

  /** What the SDK checks each call's protocol version against: the default agent's card, which lists the gRPC interfaces. */
  async getAgentCard(): Promise<AgentCard> {
    return this.endpoints.primary().card;
  }

  getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    return this.unary(params, context, (handler, own) => handler.getAuthenticatedExtendedAgentCard(own, context));
  }

  sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return this.unary(params, context, (handler, own) => handler.sendMessage(own, context));
  }

  sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.stream(params, context, (handler, own) => handler.sendMessageStream(own, context));
  }

  resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.stream(params, context, (handler, own) => handler.resubscribe(own, context));
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.unary(params, context, (handler, own) => handler.getTask(own, context));
  }

  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.unary(params, context, (handler, own) => handler.listTasks(own, context));
  }

  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.unary(params, context, (handler, own) => handler.cancelTask(own, context));
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.unary(params, context, (handler, own) => handler.createTaskPushNotificationConfig(own, context));
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.unary(params, context, (handler, own) => handler.getTaskPushNotificationConfig(own, context));
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.unary(params, context, (handler, own) => handler.listTaskPushNotificationConfigs(own, context));
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.unary(params, context, (handler, own) => handler.deleteTaskPushNotificationConfig(own, context));
  }

  /** In a server span continuing the caller's trace (`traceparent` metadata) when tracing is on. */
  private unary<P extends { tenant: string }, R>(
    params: P,
    context: ServerCallContext,
    call: (handler: SwitchboardRequestHandler, own: P) => Promise<R>,
  ): Promise<R> {
    const grpcCall = context.user instanceof GrpcCaller ? context.user.call : undefined;
    const method = grpcCall?.getPath().split('/').pop() ?? 'unknown';
    return inSpan(
      method,
      () => serverSpanOf(grpcCall, method, params.tenant),
      async () => {
        const endpoint = this.endpointFor(params.tenant, context);
        try {
          return await call(endpoint.handler, { ...params, tenant: '' });
        } catch (error) {
          throw inGrpcTerms(error);
        }
      },
    );
  }

  private async *stream<P extends { tenant: string }>(
    params: P,
    context: ServerCallContext,
    call: (handler: SwitchboardRequestHandler, own: P) => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { handler } = this.endpointFor(params.tenant, context);
    if (context.user instanceof GrpcCaller) context.user.call.once('cancelled', () => handler.abandon(context));
    try {
      yield* call(handler, { ...params, tenant: '' });
    } catch (error) {
      throw inGrpcTerms(error);
    }
  }

  private endpointFor(tenant: string, context: ServerCallContext): AgentEndpoint {
    const endpoint = tenant ? this.endpoints.find(tenant) : this.endpoints.primary();
    if (!endpoint)
      throw new GrpcRefusal(
        status.NOT_FOUND,
        `No agent named "${tenant}" (a gRPC request's tenant names its agent).`,
        'AGENT_NOT_FOUND',
      );
    const principal = context.user instanceof GrpcCaller ? context.user.principal : undefined;
    const agent = endpoint.agent.config.name;
    if (principal && !principal.scope.allowsAgent(agent)) {
      throw new GrpcRefusal(status.PERMISSION_DENIED, agentRefusal(principal.name, agent), 'AGENT_NOT_ALLOWED');
    }
    atEndpoint(context, endpoint.taskAgents);
    return endpoint;
  }
}

function serverSpanOf(call: ServerSurfaceCall | undefined, method: string, agent: string): SpanOptions {
  const metadata = (key: string) => call?.metadata.get(key)[0]?.toString();
  return {
    kind: SpanKind.SERVER,
    parent: contextOfCarrier({ traceparent: metadata('traceparent'), tracestate: metadata('tracestate') }),
    attributes: { 'rpc.system.name': 'grpc', 'rpc.method': method, ...(agent && { 'gen_ai.agent.name': agent }) },
  };
}

/** A refusal the other bindings answer 503 (retryable) is gRPC's UNAVAILABLE; A2A's own errors map as the SDK maps them. */
function inGrpcTerms(error: unknown): unknown {
  if (!(error instanceof ServiceUnavailableError)) return error;
  return new GrpcRefusal(status.UNAVAILABLE, error.message, error.reason, error.metadata);
}

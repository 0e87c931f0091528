/**
 * The baseline the A2A bench compares Switchboard with: the SDK's own reference stack (express,
 * `jsonRpcHandler`, `DefaultRequestHandler`, `InMemoryTaskStore`) serving our echo executor, no auth.
 * Run as a child process by main.ts: `node -r ts-node/register/transpile-only reference-server.ts <port>`.
 */
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, type AgentCard } from '@a2a-js/sdk';
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { EchoExecutor } from '../../src/agents/executors/echo.executor';

const REFERENCE_A2A_PATH = '/a2a';
const REFERENCE_CARD_PATH = `/${AGENT_CARD_PATH}`;

/** Our executor behind the SDK's executor interface; the echo finishes at once, so there is nothing to cancel or to save. */
function echoAgentExecutor(): AgentExecutor {
  const echo = new EchoExecutor({ type: 'echo', delay_ms: 0, chunks: 1 });
  return {
    execute: (requestContext, bus) =>
      echo.run(
        { context: requestContext, signal: new AbortController().signal, progress: { save: async () => undefined } },
        bus,
      ),
    cancelTask: async () => {},
  };
}

function agentCard(port: number): AgentCard {
  return {
    name: 'echo',
    description: 'SDK reference server running the Switchboard echo executor (bench baseline)',
    supportedInterfaces: [
      {
        url: `http://127.0.0.1:${port}${REFERENCE_A2A_PATH}`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: A2A_PROTOCOL_VERSION,
      },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Repeats the message it receives.',
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

function main(): void {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(`usage: reference-server.ts <port> (got ${process.argv[2]})`);
  const requestHandler = new DefaultRequestHandler(agentCard(port), new InMemoryTaskStore(), echoAgentExecutor());
  const app = express();
  app.use(REFERENCE_CARD_PATH, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(REFERENCE_A2A_PATH, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.listen(port, '127.0.0.1', (error?: Error) => {
    if (error) throw error;
  });
  // An orderly exit, so that a CPU profile (`--profile`) is written.
  process.once('SIGTERM', () => process.exit(0));
}

if (require.main === module) main();

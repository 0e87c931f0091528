import type { AgentTurnExecutor } from '../agent-executor.interface';
import { EchoExecutor } from './echo.executor';
import type { ExecutorSettings } from './executor-settings.schema';
import { ScriptExecutor } from './script.executor';

export function createExecutor(settings: ExecutorSettings): AgentTurnExecutor {
  switch (settings.type) {
    case 'echo':
      return new EchoExecutor(settings);
    case 'script':
      return new ScriptExecutor(settings);
  }
}

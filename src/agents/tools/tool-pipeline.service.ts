import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { TOOL_PROVIDERS, ToolProvider } from './tool-provider.interface';
import { ToolLimits, ToolSession, ToolSessionScope } from './tool-session';

/** Every tool an agent may call, from every provider, each turn's calls going through one ToolSession. */
@Injectable()
export class ToolPipeline {
  private readonly limits: ToolLimits;

  constructor(
    @Inject(TOOL_PROVIDERS) private readonly providers: ToolProvider[],
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const tools = config.get('tools', { infer: true });
    this.limits = { timeoutMs: tools.timeout_secs * 1000, maxResultChars: tools.max_result_chars };
  }

  session(scope: ToolSessionScope): ToolSession {
    return new ToolSession(this.providers, scope, this.limits);
  }
}

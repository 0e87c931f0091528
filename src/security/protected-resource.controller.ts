import { Controller, Get } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from './public.decorator';
import { PROTECTED_RESOURCE_PATH, TokenVerifier } from './token-verifier';

/**
 * The protected resource metadata (RFC 9728), public as discovery must be: at the well-known path,
 * and with `/mcp` after it, where an MCP host looks after a 401 names it. Served when
 * `auth.oauth` is configured.
 */
@Public()
@SkipThrottle()
@Controller(PROTECTED_RESOURCE_PATH.slice(1))
export class ProtectedResourceController {
  constructor(private readonly tokens: TokenVerifier) {}

  @Get(['', '*'])
  metadata(): Record<string, unknown> {
    return this.tokens.metadata;
  }
}

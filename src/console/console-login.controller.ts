import { Body, Controller, ForbiddenException, Get, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameOriginOrSafe } from '../security/console-session';
import { Public } from '../security/public.decorator';
import { ConsolePageHeaders } from './console-headers';
import { ConsoleLogins } from './console-logins.service';
import { endedSessionCookie, sessionCookie } from './session-cookie';
import { loginBody } from './page-bodies';
import { renderPage } from './page-layout';

/** The login form and the cookie it sets; public, as the login itself is the check. */
@Public()
@Controller('console')
export class ConsoleLoginController {
  constructor(private readonly logins: ConsoleLogins) {}

  @Get('login')
  @ConsolePageHeaders()
  form(@Res({ passthrough: true }) reply: FastifyReply): string {
    if (!this.logins.required) return seeOther(reply, '/console');
    return loginPage();
  }

  @Post('login')
  @ConsolePageHeaders()
  async login(
    @Req() request: FastifyRequest,
    @Body() body: { api_key?: unknown } | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    if (!this.logins.required) return seeOther(reply, '/console');
    if (!sameOriginOrSafe(request))
      throw new ForbiddenException('log in from the console itself (same-origin Origin header)');
    const refusal = await this.logins.logIn(body?.api_key, request.ip);
    if (refusal) {
      reply.status(refusal.status);
      return loginPage(refusal.message);
    }
    reply.header('set-cookie', sessionCookie(String(body!.api_key).trim(), request.protocol === 'https'));
    return seeOther(reply, '/console');
  }

  @Post('logout')
  @ConsolePageHeaders()
  logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    reply.header('set-cookie', endedSessionCookie(request.protocol === 'https'));
    return seeOther(reply, '/console/login');
  }
}

function loginPage(error?: string): string {
  return renderPage({ title: error ? 'Log in (failed)' : 'Log in', body: loginBody(error) });
}

/** 303: after a POST the browser GETs the next page, so reloading it does not post the form again. */
function seeOther(reply: FastifyReply, location: string): string {
  reply.status(HttpStatus.SEE_OTHER).header('location', location);
  return '';
}

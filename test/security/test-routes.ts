import { Body, Controller, Get, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppModule } from '../../src/app.module';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { principalOf } from '../../src/security/principal';
import { startTestApp } from '../support/test-app';

/** Test-only routes: a POST that echoes its body, and a GET that says who the caller is. */
@Controller('__test')
export class TestRoutesController {
  @Post('echo')
  echo(@Body() body: unknown) {
    return body;
  }

  @Get('whoami')
  whoami(@Req() request: FastifyRequest) {
    const principal = principalOf(request);
    return { principal: principal ? { name: principal.name } : null };
  }
}

/**
 * The real app (createHttpApp: body limit, helmet, guards, exception layer) with the test routes
 * added to its root module, so requests to them take the same path as production routes.
 */
export async function startAppWithTestRoutes(config: SwitchboardConfig) {
  const forRoot = AppModule.forRoot;
  const spy = jest.spyOn(AppModule, 'forRoot').mockImplementation((...args) => {
    const root = forRoot.apply(AppModule, args);
    return { ...root, controllers: [...(root.controllers ?? []), TestRoutesController] };
  });
  try {
    return await startTestApp(config);
  } finally {
    spy.mockRestore();
  }
}

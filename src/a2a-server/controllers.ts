import { Controller, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { SwitchboardConfig } from '../config/config.schema';
import { AgentCardsController, WellKnownCardController } from './agent-cards.controller';
import { JsonRpcController } from './json-rpc.controller';
import { RestController } from './rest.controller';
import { SeedRoutesController } from './seed-routes.controller';

/**
 * The A2A controllers at the configured paths (`a2a.listen_path`, `a2a.rest_path`). Nest reads a
 * controller's path from its class, so each is mounted on a subclass that adds the prefix, leaving
 * the class itself as it is for any other app in the process.
 */
export function a2aControllers(a2a: SwitchboardConfig['a2a']): Type[] {
  return [
    WellKnownCardController,
    under(a2a.listen_path, AgentCardsController),
    under(a2a.listen_path, JsonRpcController),
    under(a2a.rest_path, RestController),
    under(a2a.listen_path, SeedRoutesController),
  ];
}

function under<T extends Type>(prefix: string, controller: T): T {
  const path = Reflect.getMetadata(PATH_METADATA, controller) as string;
  @Controller(path === '/' ? prefix : `${prefix}/${path}`)
  class Mounted extends controller {}
  Object.defineProperty(Mounted, 'name', { value: controller.name });
  return Mounted;
}

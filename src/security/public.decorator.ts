import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'switchboard:public';

/** Opts a route or controller out of bearer authentication (health probes, agent cards). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

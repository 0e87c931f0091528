import { SetMetadata } from '@nestjs/common';

export const IS_METRICS_ROUTE = 'switchboard:metrics-route';

/** Marks the route a scrape credential (`metrics_only`) may call: `GET /metrics`, and no other. */
export const MetricsRoute = (): MethodDecorator & ClassDecorator => SetMetadata(IS_METRICS_ROUTE, true);

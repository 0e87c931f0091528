import { z } from 'zod';

/**
 * v0.3's task methods take ids the SDK's v0.3 handler uses as strings without checking (a number
 * there is a crash, not an error); these are their params as v0.3 defines them.
 */
const taskId = z.looseObject({ id: z.string() });

export const LEGACY_TASK_PARAMS_SCHEMAS: Record<string, z.ZodType> = {
  'tasks/get': z.looseObject({ id: z.string(), historyLength: z.number().int().min(0).optional() }),
  'tasks/cancel': taskId,
  'tasks/resubscribe': taskId,
  'tasks/pushNotificationConfig/get': z.looseObject({
    id: z.string(),
    pushNotificationConfigId: z.string().optional(),
  }),
  'tasks/pushNotificationConfig/list': taskId,
  'tasks/pushNotificationConfig/delete': z.looseObject({ id: z.string(), pushNotificationConfigId: z.string() }),
  'tasks/pushNotificationConfig/set': z.looseObject({
    taskId: z.string(),
    pushNotificationConfig: z.looseObject({
      url: z.string(),
      id: z.string().optional(),
      token: z.string().optional(),
      authentication: z.looseObject({ schemes: z.array(z.string()), credentials: z.string().optional() }).optional(),
    }),
  }),
};

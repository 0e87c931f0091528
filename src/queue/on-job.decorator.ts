import { SetMetadata } from '@nestjs/common';
import type { JobName } from './queue.constants';

export const ON_JOB_METADATA = 'switchboard:on-job';

/** Marks a provider method as the handler of a job; each job must have exactly one. */
export const OnJob = (name: JobName) => SetMetadata(ON_JOB_METADATA, name);

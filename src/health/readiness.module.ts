/** Whether this process's stores and queue answer: for `/readyz` on the API and on a worker. */
import { Module } from '@nestjs/common';
import { ReadinessService } from './readiness.service';

@Module({
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class ReadinessModule {}

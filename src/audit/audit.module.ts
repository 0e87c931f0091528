/** The audit trail: who logged in to the console, who cancelled which task; in Postgres, or in memory when embedded. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import type { StorageMode } from '../config/storage-mode';
import { AuditRetentionJob } from './audit-retention.job';
import { AUDIT_STORE } from './audit-store.interface';
import { AuditTrail } from './audit-trail.service';
import { MemoryAuditStore } from './memory-audit-store';
import { PostgresAuditStore } from './postgres-audit-store';

function auditStore(mode: StorageMode): Provider {
  return mode.tasks === 'memory'
    ? { provide: AUDIT_STORE, useValue: new MemoryAuditStore() }
    : { provide: AUDIT_STORE, useClass: PostgresAuditStore };
}

@Global()
@Module({})
export class AuditModule {
  /** Needs QueueModule, and DatabaseModule when mode.tasks is postgres. */
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: AuditModule,
      providers: [auditStore(mode), AuditTrail, AuditRetentionJob],
      exports: [AuditTrail, AUDIT_STORE],
    };
  }
}

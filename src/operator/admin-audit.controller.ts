import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { AdminGuard } from '../security/admin.guard';
import { AuditListParams, auditQueryOf, encodeAuditPageToken } from './audit-query';

/** An audit entry as the admin API answers it. */
export interface AuditEntryRow {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

/** The audit trail for operators (admin API): newest first, filtered, a page at a time. */
@Controller('api/admin/audit')
@UseGuards(AdminGuard)
export class AdminAuditController {
  constructor(private readonly audit: AuditTrail) {}

  @Get()
  async list(@Query() params: AuditListParams): Promise<{ entries: AuditEntryRow[]; nextPageToken?: string }> {
    const page = await this.audit.list(auditQueryOf(params));
    return {
      entries: page.entries.map((entry) => ({ ...entry, at: entry.at.toISOString() })),
      ...(page.next && { nextPageToken: encodeAuditPageToken(page.next) }),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { hasUnstorableText } from '../common/storable-text';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';
import type { AuditEntry, AuditPage, AuditQuery, AuditStore, NewAuditEntry } from './audit-store.interface';

/** The audit trail in Postgres (`audit_entries`): one row per entry. */
@Injectable()
export class PostgresAuditStore implements AuditStore {
  constructor(private readonly prisma: PrismaService) {}

  async append(entry: NewAuditEntry): Promise<void> {
    await this.prisma.auditEntry.create({
      data: { ...entry, detail: entry.detail as Prisma.InputJsonValue | undefined },
    });
  }

  async list({ actor, action, target, since, beforeId, limit }: AuditQuery): Promise<AuditPage> {
    // Postgres cannot hold such text, so no entry has it (and the query would fail rather than find none).
    if (hasUnstorableText(actor, action, target)) return { entries: [] };
    const rows = await this.prisma.auditEntry.findMany({
      where: {
        actor,
        action,
        target,
        ...(since && { at: { gte: since } }),
        ...(beforeId !== undefined && { id: { lt: BigInt(beforeId) } }),
      },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const entries = rows.slice(0, limit).map((row): AuditEntry => ({
      id: row.id.toString(),
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      ...(row.detail !== null && { detail: row.detail as Record<string, unknown> }),
    }));
    return { entries, ...(rows.length > limit && { next: entries.at(-1)!.id }) };
  }

  async removeBefore(cutoff: Date): Promise<number> {
    return (await this.prisma.auditEntry.deleteMany({ where: { at: { lt: cutoff } } })).count;
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';
import { changedEntry, checkChange } from './catalog-change-checks';
import type {
  AppliedChange,
  CatalogChange,
  CatalogContents,
  CatalogKind,
  CatalogStore,
  ChangeAudit,
  StoredEntry,
} from './catalog-store.interface';

/** Writers wait their turn on catalog_state's row: many at once (a script, a rush of PUTs) must not time out. */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

/** The admin API's entries in Postgres (`catalog_entries`), the revision in `catalog_state`. */
@Injectable()
export class PostgresCatalogStore implements CatalogStore {
  constructor(private readonly prisma: PrismaService) {}

  async contents(): Promise<CatalogContents> {
    // One snapshot: entries and revision as of one moment.
    return this.prisma.$transaction(
      async (tx) => {
        const revision = await revisionIn(tx);
        const rows = await tx.catalogEntry.findMany({ orderBy: [{ kind: 'asc' }, { createdAt: 'asc' }] });
        return { revision, entries: rows.map(entryOf) };
      },
      { isolationLevel: 'RepeatableRead' },
    );
  }

  revision(): Promise<number> {
    return revisionIn(this.prisma);
  }

  apply(change: CatalogChange, audit: ChangeAudit): Promise<AppliedChange> {
    const { kind, name } = change;
    return this.prisma.$transaction(async (tx) => {
      const [{ revision }] = await tx.$queryRaw<{ revision: bigint }[]>`
        UPDATE catalog_state SET revision = revision + 1 WHERE id = 1 RETURNING revision`;
      const row = await tx.catalogEntry.findUnique({ where: { kind_name: { kind, name } } });
      const before = row ? entryOf(row) : undefined;
      const count = change.op === 'create' ? await tx.catalogEntry.count({ where: { kind } }) : 0;
      checkChange(change, before, () => count);
      const after = changedEntry(change, before, new Date());
      if (!after) await tx.catalogEntry.delete({ where: { kind_name: { kind, name } } });
      else
        await tx.catalogEntry.upsert({
          where: { kind_name: { kind, name } },
          create: { ...after, body: after.body as Prisma.InputJsonValue },
          update: { body: after.body as Prisma.InputJsonValue, version: after.version, updatedAt: after.updatedAt },
        });
      const entry = audit(before, after);
      await tx.auditEntry.create({ data: { ...entry, detail: entry.detail as Prisma.InputJsonValue | undefined } });
      return { entry: (after ?? before)!, revision: Number(revision) };
    }, TRANSACTION_OPTIONS);
  }
}

async function revisionIn(client: Pick<PrismaService, 'catalogState'>): Promise<number> {
  const state = await client.catalogState.findUnique({ where: { id: 1 } });
  return Number(state?.revision ?? 0);
}

function entryOf(row: {
  kind: string;
  name: string;
  body: unknown;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}): StoredEntry {
  return { ...row, kind: row.kind as CatalogKind, body: row.body as Record<string, unknown> };
}

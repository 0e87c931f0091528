import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createdKeySchema } from '../config/auth.schema';
import type { SwitchboardConfig } from '../config/config.schema';
import { keyDigest } from '../config/file-catalog';
import { schemaProblems } from '../config/schema-problems';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { kindSpec } from './catalog-kinds';
import { blockedReasonOf, entryProblems, holdsRedacted, outboundUrls } from './entry-checks';
import { keepRedactedSecrets, sealSecrets } from './catalog-secrets';
import { BOOT_CONFIG, CatalogSource } from './catalog-source.service';
import type { CatalogChange, CatalogKind, StoredEntry } from './catalog-store.interface';
import { CatalogSync } from './catalog-sync.service';
import { apiEntryView, shownBody, type CatalogEntryView } from './catalog-views';
import {
  CatalogChangeForbiddenError,
  CatalogConflictError,
  CatalogEntryInvalidError,
  CatalogEntryNotFoundError,
} from './catalog.errors';

/** A key made through the admin API, answered once. */
export type CreatedKey = CatalogEntryView & { key: string };

/**
 * The admin API's changes to the catalog: each entry checked as the file's are (and for what only the
 * network could ask: a command line, a file path, Switchboard's own variables), stored with its audit
 * entry, applied on this process before the answer, and announced to the others.
 */
@Injectable()
export class CatalogEditor {
  private readonly settings: SwitchboardConfig['catalog'];

  constructor(
    private readonly source: CatalogSource,
    private readonly sync: CatalogSync,
    private readonly outbound: OutboundUrlPolicy,
    @Inject(BOOT_CONFIG) config: SwitchboardConfig,
  ) {
    this.settings = config.catalog;
  }

  async create(kind: CatalogKind, body: unknown, actor: string): Promise<CatalogEntryView> {
    const entry = objectBody(kind, body);
    this.refuseFileEntry(kind, String(entry.name ?? ''));
    const stored = (await this.checkedEntry(kind, entry, undefined)).sealed;
    return this.applied(
      { op: 'create', kind, name: stored.name as string, body: stored, maxEntries: this.settings.max_entries },
      actor,
    );
  }

  async update(kind: CatalogKind, name: string, body: unknown, ifVersion: number | undefined, actor: string) {
    const entry = objectBody(kind, body);
    if (entry.name !== undefined && entry.name !== name)
      throw new CatalogEntryInvalidError([
        `name: is "${name}" in the path; to rename an entry, create one under the new name and delete this one`,
      ]);
    this.refuseFileEntry(kind, name);
    const current = (await this.source.store.contents()).entries.find((e) => e.kind === kind && e.name === name);
    if (!current) throw new CatalogEntryNotFoundError(kind, name);
    const stored = (await this.checkedEntry(kind, { ...entry, name }, current)).sealed;
    return this.applied(
      { op: 'update', kind, name, ifVersion, body: (before) => keepRedactedSecrets(kind, stored, before.body) },
      actor,
    );
  }

  async remove(kind: CatalogKind, name: string, ifVersion: number | undefined, actor: string): Promise<void> {
    this.refuseFileEntry(kind, name);
    const reading = await this.source.read();
    const remaining = reading.entries.filter((entry) => !(entry.kind === kind && entry.name === name));
    const problems = newProblems(reading.problems, this.source.built({ ...reading, entries: remaining }).problems);
    if (problems.length > 0)
      throw new CatalogConflictError(`other entries refer to ${kind} "${name}": ${problems.join('; ')}`);
    await this.applied({ op: 'delete', kind, name, ifVersion }, actor);
  }

  /**
   * The entry as the catalog would resolve it (secrets opened, references read), after every check a
   * create makes, without storing it: what a "test connection" connects with.
   */
  async resolved(kind: CatalogKind, body: unknown): Promise<object> {
    const entry = objectBody(kind, body);
    const name = String(entry.name ?? '');
    const current = (await this.source.store.contents()).entries.find((e) => e.kind === kind && e.name === name);
    return (await this.checkedEntry(kind, entry, current)).resolved;
  }

  /** A new API key: made here, stored as its digest, answered once. */
  async createKey(body: unknown, actor: string): Promise<CreatedKey> {
    const parsed = createdKeySchema.safeParse(objectBody('keys', body));
    if (!parsed.success) throw new CatalogEntryInvalidError(schemaProblems(parsed.error.issues));
    const { name, expires_at } = parsed.data;
    if (expires_at !== undefined && Date.parse(expires_at) <= Date.now())
      throw new CatalogEntryInvalidError([`expires_at: ${expires_at} has passed`]);
    this.refuseFileEntry('keys', name);
    const key = `sbk_${randomBytes(32).toString('base64url')}`;
    const view = await this.applied(
      {
        op: 'create',
        kind: 'keys',
        name,
        body: { ...parsed.data, digest: keyDigest(key) },
        maxEntries: this.settings.max_entries,
      },
      actor,
    );
    return { ...view, key };
  }

  /** The entry as it would be stored (secrets sealed) and as the catalog would resolve it, after every check. */
  private async checkedEntry(
    kind: CatalogKind,
    entry: Record<string, unknown>,
    current: StoredEntry | undefined,
  ): Promise<{ sealed: Record<string, unknown>; resolved: object }> {
    const body = current ? keepRedactedSecrets(kind, entry, current.body) : entry;
    const forbidden = kind === 'mcp_servers' && !this.settings.allow_stdio_from_api && isStdio(body);
    if (forbidden)
      throw new CatalogChangeForbiddenError(
        'transport.type: a stdio MCP server runs a command on this machine; the admin API may create one only with catalog.allow_stdio_from_api = true (or put it in the file)',
      );
    const problems = [...entryProblems(kind, body), ...holdsRedacted(kind, body)];
    const sealed = sealSecrets(kind, body, this.source.cipher, problems);
    if (problems.length > 0) throw new CatalogEntryInvalidError(problems);
    const name = String(sealed.name);
    const reading = await this.source.read();
    const now = new Date();
    const candidate: StoredEntry = { kind, name, body: sealed, version: 0, createdAt: now, updatedAt: now };
    const entries = [...reading.entries.filter((e) => !(e.kind === kind && e.name === name)), candidate];
    const built = this.source.built({ ...reading, entries });
    const own = `${kind}.${name}.`;
    const found = newProblems(reading.problems, built.problems).map((problem) =>
      problem.startsWith(own) ? problem.slice(own.length) : problem,
    );
    if (found.length > 0) throw new CatalogEntryInvalidError(found);
    const resolved = (built.catalog[kind] as readonly { name: string }[]).find((item) => item.name === name)!;
    await this.checkOutbound(resolved);
    return { sealed, resolved };
  }

  /** Every URL the entry makes Switchboard call, checked against the SSRF rules now (and again at each call, as the file's). */
  private async checkOutbound(resolved: object): Promise<void> {
    const problems: string[] = [];
    for (const { path, url } of outboundUrls(resolved)) {
      const blocked = await blockedReasonOf(this.outbound, url);
      if (blocked) problems.push(`${path}: ${blocked}`);
    }
    if (problems.length > 0) throw new CatalogEntryInvalidError(problems);
  }

  private refuseFileEntry(kind: CatalogKind, name: string): void {
    const file = this.source.file;
    if (!(file.catalog[kind] as readonly { name: string }[]).some((item) => item.name === name)) return;
    throw new CatalogConflictError(
      `${kind} "${name}" is an entry of ${file.path ?? 'the environment'} (${kindSpec(kind).fileSection}): change it there, and reload (SIGHUP)`,
    );
  }

  private async applied(change: CatalogChange, actor: string): Promise<CatalogEntryView> {
    const { target } = kindSpec(change.kind);
    const { entry, revision } = await this.source.store.apply(change, (before, after) => ({
      at: new Date(),
      actor,
      action: `catalog.${change.op}`,
      target: `${target}:${change.name}`,
      detail: {
        version: (after ?? before)!.version,
        ...(before && { before: shownBody(change.kind, before.body) }),
        ...(after && { after: shownBody(change.kind, after.body) }),
      },
    }));
    await this.sync.changed(revision);
    return apiEntryView(entry);
  }
}

function objectBody(kind: CatalogKind, body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw new CatalogEntryInvalidError([
    `<body>: must be a JSON object with the keys of a ${kindSpec(kind).fileSection} entry`,
  ]);
}

function isStdio(body: Record<string, unknown>): boolean {
  const transport = body.transport as { type?: unknown } | undefined;
  return transport?.type === 'stdio';
}

/** The problems of `after` that `before` did not have: those a change brings. */
function newProblems(before: readonly string[], after: readonly string[]): string[] {
  const known = new Set(before);
  return after.filter((problem) => !known.has(problem));
}

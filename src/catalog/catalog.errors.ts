import type { CatalogKind } from './catalog-store.interface';

/** A change the catalog cannot make as asked; the admin API answers with `status` and the message. */
export abstract class CatalogError extends Error {
  abstract readonly status: number;
}

/** 400: the entry is not valid; each problem names its field path. */
export class CatalogEntryInvalidError extends CatalogError {
  readonly status = 400;
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** 403: a setting forbids this through the API. */
export class CatalogChangeForbiddenError extends CatalogError {
  readonly status = 403;
}

/** 404 */
export class CatalogEntryNotFoundError extends CatalogError {
  readonly status = 404;
  constructor(kind: CatalogKind, name: string) {
    super(`no ${kind} entry named "${name}" was created through the admin API`);
  }
}

/** 409: the name is taken, the entry is the file's, the kind is full, or others refer to it. */
export class CatalogConflictError extends CatalogError {
  readonly status = 409;
}

/** 412: `If-Match` names a version the entry no longer has. */
export class CatalogVersionMismatchError extends CatalogError {
  readonly status = 412;
  constructor(
    kind: CatalogKind,
    name: string,
    readonly currentVersion: number,
  ) {
    super(`${kind} entry "${name}" is at version ${currentVersion}, not the one If-Match names: read it again`);
  }
}

import { Injectable } from '@nestjs/common';
import { AccessCatalog, parsePermissionDocument, PermissionDocumentJson, permissionsToJson } from '@app/platform';
import { AccountsError } from '../../domain/errors';

/**
 * A role's permission document as the client sends it: the public model's JSON, read by
 * the same parser as a key's (docs/access.md "Permission documents"), stored written back.
 */
@Injectable()
export class TeamRoleDocument {
  constructor(private readonly catalog: AccessCatalog) {}

  parse(raw: unknown): PermissionDocumentJson {
    if (raw === undefined || raw === null)
      throw new AccountsError('bad_request', 'Invalid request: permissions is required');
    const document = parsePermissionDocument(raw, { catalog: this.catalog, wildcards: {} });
    if (!document.ok) throw new AccountsError('bad_request', `Invalid request: ${document.problem}`);
    // A document always parses to a scoped grant; only the owner role is full.
    return permissionsToJson(document.permissions) ?? { api: {} };
  }
}

import { PermissionDocumentJson } from '@app/platform';
import { ApiKey, KeyParamsJson, storedAllowlist, storedPermissions } from '../../domain/api-key';

export interface ApiKeyRow {
  id: number;
  user_id: number;
  team_id: number | null;
  name: string | null;
  key_prefix: string;
  permissions: PermissionDocumentJson | null;
  key_params: KeyParamsJson | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  is_main: boolean;
}

export const API_KEY_COLUMNS = `id, user_id, team_id, name, key_prefix, permissions, key_params,
  created_at, last_used_at, expires_at, is_main`;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    userId: row.user_id,
    teamId: row.team_id,
    name: row.name,
    prefix: row.key_prefix,
    permissions: storedPermissions(row.permissions),
    keyParams: row.key_params,
    ipAllowlist: storedAllowlist(row.key_params),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    main: row.is_main,
  };
}

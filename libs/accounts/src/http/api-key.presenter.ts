import { permissionsToJson } from '@app/platform';
import { ApiKey } from '../domain/api-key';
import { ApiKeyDto } from './api-key.response.dto';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function presentApiKey(key: ApiKey): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    permissions: permissionsToJson(key.permissions),
    key_params: key.keyParams,
    team_id: key.teamId,
    main: key.main,
    created_at: seconds(key.createdAt),
    last_used: key.lastUsedAt ? seconds(key.lastUsedAt) : null,
    expires_at: key.expiresAt ? seconds(key.expiresAt) : null,
  };
}

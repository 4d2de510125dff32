import { EndedSessions } from '../application/sessions/end-sessions.use-case';
import { ListedSession } from '../application/sessions/list-sessions.use-case';
import { SessionsToEnd } from '../application/sessions/end-sessions.use-case';
import { SessionDto, SessionsEndedDto } from './session.response.dto';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function presentSession(session: ListedSession): SessionDto {
  return {
    id: session.id,
    created_at: seconds(session.createdAt),
    last_used: session.lastUsedAt ? seconds(session.lastUsedAt) : null,
    expires_at: seconds(session.expiresAt),
    address: session.address,
    last_address: session.lastAddress,
    user_agent: session.userAgent,
    current: session.current,
    trusted_device: session.trustedDevice,
  };
}

export function presentSessionsEnded(
  target: SessionsToEnd,
  ended: EndedSessions,
): SessionsEndedDto {
  const msg =
    'id' in target
      ? `Session ${target.id} ended.`
      : `${ended.sessions} other session${ended.sessions === 1 ? '' : 's'} ended, ${ended.devices} trusted device${ended.devices === 1 ? '' : 's'} revoked.`;
  return { success: true, msg, sessions_ended: ended.sessions, devices_revoked: ended.devices };
}

import { Body, Controller, Delete, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { EndSessionsUseCase } from '../application/sessions/end-sessions.use-case';
import { ListSessionsUseCase } from '../application/sessions/list-sessions.use-case';
import { presentSession, presentSessionsEnded } from './session.presenter';
import { EndSessionsRequestDto } from './session.request.dto';
import { toSessionsToEnd } from './session.request';
import { SessionListDto, SessionsEndedDto } from './session.response.dto';
import { ApiAccountsErrors } from './accounts-route-errors';

/** The caller's sessions: see them, end one, or sign out everywhere (docs/access.md). */
@ApiTags('sessions')
@ApiBearerAuth()
@Controller('api/v0/auth/sessions')
export class SessionsController {
  constructor(
    private readonly listSessions: ListSessionsUseCase,
    private readonly endSessions: EndSessionsUseCase,
  ) {}

  @Get()
  @Access('user_read', 'api.sessions.list')
  @ApiOperation({
    summary: 'Your live sessions, newest first',
    description:
      'Where and with what each was opened, its last use, and which one is this request’s.',
  })
  @ApiOkResponse({ type: SessionListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SessionListDto> {
    const sessions = await this.listSessions.execute(principal);
    return { success: true, sessions: sessions.map(presentSession) };
  }

  @Delete()
  @Access('user_write', 'api.sessions.delete')
  @SecurityWrite()
  @ApiOperation({
    summary: 'End a session, or sign out everywhere',
    description:
      '{"id": N} ends that session (this one included); {"all": true} ends every other session ' +
      'and revokes every trusted device. API keys are untouched. Holds at once on every replica.',
  })
  @ApiBody({ type: EndSessionsRequestDto })
  @ApiOkResponse({ type: SessionsEndedDto })
  @ApiAccountsErrors.described('not_found: no live session of yours with this id', 'not_found')
  async end(
    @CurrentPrincipal() principal: Principal,
    @Body() body: EndSessionsRequestDto,
    @Req() request: Request,
  ): Promise<SessionsEndedDto> {
    const target = toSessionsToEnd(body);
    const ended = await this.endSessions.execute({
      principal,
      target,
      origin: requestOrigin(request),
    });
    return presentSessionsEnded(target, ended);
  }
}

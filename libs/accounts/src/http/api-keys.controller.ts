import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { CreateOwnApiKeyUseCase } from '../application/api-keys/create-own-api-key.use-case';
import { DeleteApiKeyUseCase } from '../application/api-keys/delete-api-key.use-case';
import { ListApiKeysUseCase } from '../application/api-keys/list-api-keys.use-case';
import { ResetMainApiKeyUseCase } from '../application/api-keys/reset-main-api-key.use-case';
import { presentApiKey } from './api-key.presenter';
import { CreateApiKeyRequestDto, ResetApiKeyRequestDto } from './api-key.request.dto';
import { checkResetClient, parseKeyId, toCreateApiKeyInput } from './api-key.request';
import {
  ApiKeyCreatedDto,
  ApiKeyDeletedDto,
  ApiKeyListDto,
  ApiKeyResetDto,
  ApiKeyShownDto,
} from './api-key.response.dto';
import { ApiAccountsErrors } from './accounts-route-errors';

/**
 * The caller's API keys, as the public client's `create api-key`, `show api-keys`,
 * `show api-key ID`, `delete api-key ID` and `reset api-key` drive them (docs/access.md).
 */
@ApiTags('api keys')
@ApiBearerAuth()
@Controller('api/v0')
export class ApiKeysController {
  constructor(
    private readonly createKey: CreateOwnApiKeyUseCase,
    private readonly listKeys: ListApiKeysUseCase,
    private readonly deleteKey: DeleteApiKeyUseCase,
    private readonly resetKey: ResetMainApiKeyUseCase,
  ) {}

  @Post('auth/apikeys')
  @Access('user_write', 'api.apikeys.create')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an API key (`create api-key`)',
    description:
      'Without permissions a full key; with a permission document, only what it lists. Never ' +
      "beyond the caller's own key (403 permission_denied). The key is in this answer only.",
  })
  @ApiBody({ type: CreateApiKeyRequestDto })
  @ApiOkResponse({ type: ApiKeyCreatedDto })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateApiKeyRequestDto,
    @Req() request: Request,
  ): Promise<ApiKeyCreatedDto> {
    const { key, apiKey } = await this.createKey.execute({
      principal,
      ...toCreateApiKeyInput(body),
      origin: requestOrigin(request),
    });
    return { success: true, key, ...presentApiKey(apiKey) };
  }

  @Get('auth/apikeys')
  @Access('user_read', 'api.apikeys.list')
  @ApiOperation({ summary: 'Your API keys (`show api-keys`)', description: 'Never a key itself.' })
  @ApiOkResponse({ type: ApiKeyListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListDto> {
    const keys = await this.listKeys.execute(principal);
    return { success: true, apikeys: keys.map(presentApiKey) };
  }

  @Get('auth/apikeys/:id')
  @Access('user_read', 'api.apikeys.show')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({ summary: 'One of your API keys (`show api-key ID`)' })
  @ApiOkResponse({ type: ApiKeyShownDto })
  @ApiAccountsErrors.described('not_found: no live key of yours with this id', 'not_found')
  async show(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
  ): Promise<ApiKeyShownDto> {
    return {
      success: true,
      ...presentApiKey(await this.listKeys.one(principal, parseKeyId(rawId))),
    };
  }

  @Delete('auth/apikeys/:id')
  @Access('user_write', 'api.apikeys.delete')
  @SecurityWrite()
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Delete an API key (`delete api-key ID`)',
    description:
      'It stops working at once, on every replica. The main key is reset, not deleted (400).',
  })
  @ApiOkResponse({ type: ApiKeyDeletedDto })
  @ApiAccountsErrors.described('not_found: no live key of yours with this id', 'not_found')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @Req() request: Request,
  ): Promise<ApiKeyDeletedDto> {
    const keyId = parseKeyId(rawId);
    await this.deleteKey.execute({ principal, keyId, origin: requestOrigin(request) });
    return { success: true, msg: `API key ${keyId} deleted.` };
  }

  @Put('commands/reset_apikey')
  @Access('user_write', 'api.apikeys.reset')
  @SecurityWrite()
  @ApiOperation({
    summary: 'Rotate your main API key (`reset api-key`)',
    description:
      'A new main key; the old one stops working at once, on every replica. Only with a full ' +
      'personal key or a session (a scoped key: 403 permission_denied).',
  })
  @ApiBody({ type: ResetApiKeyRequestDto, required: false })
  @ApiOkResponse({ type: ApiKeyResetDto })
  async reset(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ResetApiKeyRequestDto,
    @Req() request: Request,
  ): Promise<ApiKeyResetDto> {
    checkResetClient(body.client_id, principal);
    const { key, apiKey } = await this.resetKey.execute({
      principal,
      origin: requestOrigin(request),
    });
    return { success: true, new_api_key: key, id: apiKey.id, prefix: apiKey.prefix };
  }
}

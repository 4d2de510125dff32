import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RateLimit } from '@app/platform';
import { UnlistVolumeUseCase } from '../application/unlist-volume.use-case';

import { parseListingId } from './unlist-volume.request';
import { UnlistVolumeRequestDto } from './unlist-volume.request.dto';
import { UnlistVolumeResponseDto, VolumeErrorResponseDto } from './unlist-volume.response.dto';

@ApiTags('volumes')
@ApiBearerAuth()
@Controller('api/v0/volumes')
export class VolumesController {
  constructor(private readonly unlistVolume: UnlistVolumeUseCase) {}

  // Served with and without the trailing slash (the public client sends none), never redirected.
  @Post('unlist')
  @HttpCode(200)
  @RateLimit('volumes_unlist')
  @ApiOperation({
    summary: 'Unlist one of your volumes from the marketplace',
    description:
      'Idempotent: unlisting an already unlisted volume succeeds again. Unknown ids and ' +
      "other users' listings get the same answer.",
  })
  @ApiOkResponse({ type: UnlistVolumeResponseDto })
  @ApiBadRequestResponse({
    type: VolumeErrorResponseDto,
    description: 'id missing or not a positive integer, no such listing, or listing in use',
  })
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=5.0"}',
  })
  async unlist(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UnlistVolumeRequestDto,
  ): Promise<UnlistVolumeResponseDto> {
    const listingId = parseListingId(body.id);
    await this.unlistVolume.execute({ listingId, actorUserId: principal.userId });
    return { success: true, msg: `Unlisted Volume ${listingId}.` };
  }
}

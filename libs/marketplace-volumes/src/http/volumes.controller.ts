import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Access, CurrentPrincipal, errorResponsesOf, Principal, RateLimit } from '@app/platform';
import { UnlistVolumeUseCase } from '../application/unlist-volume.use-case';
import { VOLUMES_ERRORS } from '../domain/errors';
import { parseListingId } from './unlist-volume.request';
import { UnlistVolumeRequestDto } from './unlist-volume.request.dto';
import { UnlistVolumeResponseDto, VolumeErrorResponseDto } from './unlist-volume.response.dto';
import { presentUnlistedVolume } from './volume-listing.presenter';

/** Documents a volumes route's failures from the codes it can raise (errorResponsesOf). */
const ApiVolumesErrors = errorResponsesOf(VOLUMES_ERRORS, VolumeErrorResponseDto);

@ApiTags('volumes')
@ApiBearerAuth()
@Controller('api/v0/volumes')
export class VolumesController {
  constructor(private readonly unlistVolume: UnlistVolumeUseCase) {}

  // Served with and without the trailing slash (the public client sends none), never redirected.
  @Post('unlist')
  @Access('machine_write', 'api.volumes.unlist')
  @HttpCode(200)
  @RateLimit('volumes_unlist')
  @ApiOperation({
    summary: 'Unlist one of your volumes from the marketplace',
    description:
      'Idempotent: unlisting an already unlisted volume succeeds again. Unknown ids and ' +
      "other users' listings get the same answer.",
  })
  @ApiOkResponse({ type: UnlistVolumeResponseDto })
  @ApiVolumesErrors.described(
    'id missing or not a positive integer, no such listing, or listing in use',
    'volume_id_missing',
    'volume_id_invalid',
    'volume_listing_not_found',
    'volume_listing_active',
  )
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=5.0"}',
  })
  async unlist(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UnlistVolumeRequestDto,
  ): Promise<UnlistVolumeResponseDto> {
    const listingId = parseListingId(body.id);
    const outcome = await this.unlistVolume.execute({
      listingId,
      actorUserId: principal.userId,
      actorTeamId: principal.teamId,
    });
    return presentUnlistedVolume(listingId, outcome);
  }
}

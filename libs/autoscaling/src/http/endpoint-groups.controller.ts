import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import {
  Access,
  CapConcurrency,
  CurrentPrincipal,
  errorResponsesOf,
  Principal,
  RateLimit,
  strictBody,
} from '@app/platform';
import { CreateEndpointGroupUseCase } from '../application/create-endpoint-group.use-case';
import { DeleteEndpointGroupUseCase } from '../application/delete-endpoint-group.use-case';
import { ListEndpointGroupsUseCase } from '../application/list-endpoint-groups.use-case';
import { UpdateEndpointGroupUseCase } from '../application/update-endpoint-group.use-case';
import { AUTOSCALING_ERRORS, AutoscalingError } from '../domain/errors';
import { presentEndpointGroup } from './endpoint-group.presenter';
import { groupIdOf, optionsPatchFromWire } from './endpoint-group.request';
import {
  CreateEndpointGroupRequestDto,
  DeleteEndpointGroupRequestDto,
  UpdateEndpointGroupRequestDto,
} from './endpoint-group.request.dto';
import {
  CreateEndpointGroupResponseDto,
  EndpointGroupSuccessResponseDto,
  ListEndpointGroupsResponseDto,
} from './endpoint-group.response.dto';

/** Documents an endpoint-group route's failures from the codes it can raise (errorResponsesOf). */
const ApiAutoscalingErrors = errorResponsesOf(AUTOSCALING_ERRORS);

/** `@StrictBody() body: SomeDto`: the request body as SomeDto, or a 400 invalid_args. */
const StrictBody = strictBody((message) => new AutoscalingError('invalid_args', message));

@ApiTags('endpoint groups')
@ApiBearerAuth()
@Controller('api/v0/endptjobs')
export class EndpointGroupsController {
  constructor(
    private readonly createGroup: CreateEndpointGroupUseCase,
    private readonly listGroups: ListEndpointGroupsUseCase,
    private readonly updateGroup: UpdateEndpointGroupUseCase,
    private readonly deleteGroup: DeleteEndpointGroupUseCase,
  ) {}

  @Post()
  @Access('misc', 'api.endptjobs.create')
  @HttpCode(200)
  @RateLimit('endpoint_groups_create')
  @ApiOperation({
    summary: 'Create an endpoint group (`create endpoint`)',
    description: 'Every option is optional; null or absent takes the default.',
  })
  @ApiBody({ type: CreateEndpointGroupRequestDto })
  @ApiOkResponse({ type: CreateEndpointGroupResponseDto })
  @ApiAutoscalingErrors.described(
    '{"success":false,"error":"invalid_args","msg":...}',
    'invalid_args',
  )
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=4.0"}',
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateEndpointGroupRequestDto,
  ): Promise<CreateEndpointGroupResponseDto> {
    const id = await this.createGroup.execute({
      userId: principal.userId,
      teamId: principal.teamId,
      options: optionsPatchFromWire(body),
    });
    return { success: true, result: id };
  }

  // The public client sends a JSON body on this GET ({client_id, api_key}); it is ignored.
  @Get()
  @Access('misc', 'api.endptjobs.list')
  @ApiOperation({
    summary: "The caller's endpoint groups (`show endpoints`)",
    description: 'Each row carries the worker api_key of the group.',
  })
  @ApiOkResponse({ type: ListEndpointGroupsResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ListEndpointGroupsResponseDto> {
    const groups = await this.listGroups.execute(principal.userId, principal.teamId);
    return { success: true, results: groups.map(presentEndpointGroup) };
  }

  @Put(':id')
  @Access('misc', 'api.endptjobs.update')
  @CapConcurrency('endpoint_groups_write')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Update an endpoint group (`update endpoint ID`)',
    description:
      'A PATCH-style merge: null or absent fields keep their value. The merged options are ' +
      'validated as a whole (cold_workers <= max_workers, target_queue_time <= max_queue_time).',
  })
  @ApiBody({ type: UpdateEndpointGroupRequestDto })
  @ApiOkResponse({ type: EndpointGroupSuccessResponseDto })
  @ApiAutoscalingErrors.described(
    '{"success":false,"error":"invalid_args","msg":...}',
    'invalid_args',
  )
  @ApiAutoscalingErrors.described('no such group, or not yours', 'endpoint_group_not_found')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @StrictBody() body: UpdateEndpointGroupRequestDto,
  ): Promise<EndpointGroupSuccessResponseDto> {
    await this.updateGroup.execute({
      userId: principal.userId,
      teamId: principal.teamId,
      groupId: groupIdOf(rawId, body.endptjob_id),
      options: optionsPatchFromWire(body),
      state: body.endpoint_state ?? undefined,
    });
    return { success: true };
  }

  @Delete(':id')
  @Access('misc', 'api.endptjobs.delete')
  @CapConcurrency('endpoint_groups_write')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({ summary: 'Delete an endpoint group (`delete endpoint ID`)' })
  @ApiBody({ type: DeleteEndpointGroupRequestDto, required: false })
  @ApiOkResponse({ type: EndpointGroupSuccessResponseDto })
  @ApiAutoscalingErrors.described('no such group, or not yours', 'endpoint_group_not_found')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @StrictBody() body: DeleteEndpointGroupRequestDto,
  ): Promise<EndpointGroupSuccessResponseDto> {
    await this.deleteGroup.execute({
      userId: principal.userId,
      teamId: principal.teamId,
      groupId: groupIdOf(rawId, body.endptjob_id),
    });
    return { success: true };
  }
}

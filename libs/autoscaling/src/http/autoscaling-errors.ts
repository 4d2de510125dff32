import { ErrorTable } from '@app/platform';

export const AUTOSCALING_ERRORS: ErrorTable = {
  invalid_args: { status: 400 },
  endpoint_group_not_found: { status: 404, wireCode: 'not_found' },
};

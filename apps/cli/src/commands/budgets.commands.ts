import { InvalidArgumentError } from 'commander';
import { choiceOption, parseNumber } from '../options/validation';
import { CommandKit } from './command-kit';
import { addCommand, addGroup, idArgument, OptionSpec, positiveId } from './command-spec';
import {
  budgetAlerts,
  createBudget,
  deleteBudget,
  listBudgets,
  showBudget,
  updateBudget,
} from './budgets.handlers';

/** `50,80,100`: whole percents; the server checks their range and count. */
function thresholdsOption(value: string): number[] {
  return value.split(',').map((part) => parseNumber(part, { integer: true, min: 1 }));
}

const SCOPE_KEYS = ['label', 'endpoint-id', 'workergroup-id'] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

function clearOption(value: string): ScopeKey[] {
  return value.split(',').map((key) => {
    const trimmed = key.trim();
    if ((SCOPE_KEYS as readonly string[]).includes(trimmed)) return trimmed as ScopeKey;
    throw new InvalidArgumentError(`Unknown scope key '${trimmed}'; use ${SCOPE_KEYS.join(', ')}.`);
  });
}

/** An amount as typed: sent as a decimal string, checked by the server (> 0, 3 decimals). */
function amountOption(value: string): string {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed))
    throw new InvalidArgumentError('Expected an amount such as 250 or 250.50.');
  return trimmed;
}

const budgetId = idArgument('budget id');

/** The scope's options; `unset` says what leaving one out means in its command. */
const scopeOptions = (unset: string): OptionSpec[] => [
  {
    flags: '--label <label>',
    description: `only charges of contracts with this label (default: ${unset})`,
  },
  {
    flags: '--endpoint-id <id>',
    description: `only charges of this endpoint (default: ${unset})`,
    parse: positiveId,
  },
  {
    flags: '--workergroup-id <id>',
    description: `only charges of this workergroup (default: ${unset})`,
    parse: positiveId,
  },
];

/** `budgets ...`: budgets and their alerts (docs/spend-guards.md). */
export function registerBudgetCommands(kit: CommandKit): void {
  const budgets = addGroup(
    kit.program,
    'budgets',
    'Budgets: an amount per day, week or month (UTC) and the percents of it that alert',
    'gpumkt budgets create --name training --amount 250 --period month',
    'gpumkt budgets show 12',
  );
  addCommand(kit, budgets, 'list', {
    description: "List the budgets (your own, or the team's with a team key)",
    examples: ['gpumkt budgets list', 'gpumkt budgets list --raw'],
    handler: listBudgets,
  });
  addCommand(kit, budgets, 'create', {
    description:
      'Create a budget; alerts mail you (and post to your webhooks) as spend crosses its thresholds',
    options: [
      { flags: '--name <name>', description: 'the budget name (required)', required: true },
      {
        flags: '--amount <dollars>',
        description: 'the amount per period, at most 3 decimals (required)',
        required: true,
        parse: amountOption,
      },
      {
        flags: '--period <period>',
        description: 'day, week (from Monday) or month, UTC (required)',
        required: true,
        parse: choiceOption(['day', 'week', 'month'] as const),
      },
      {
        flags: '--thresholds <percents>',
        description: 'comma-separated percents, 1 to 1000 (default: 50,80,100)',
        parse: thresholdsOption,
      },
      ...scopeOptions('any'),
    ],
    examples: [
      'gpumkt budgets create --name training --amount 250 --period month',
      'gpumkt budgets create --name ep --amount 20 --period day --endpoint-id 501 --thresholds 80,100',
    ],
    handler: createBudget,
  });
  addCommand(kit, budgets, 'show', {
    description:
      'Show a budget and its current period: spent, remaining, forecast, thresholds crossed',
    arguments: [budgetId],
    examples: ['gpumkt budgets show 12', 'gpumkt budgets show 12 --raw'],
    handler: showBudget,
  });
  addCommand(kit, budgets, 'update', {
    description: 'Change a budget (its period cannot change)',
    arguments: [budgetId],
    options: [
      { flags: '--name <name>', description: 'a new name (default: unchanged)' },
      {
        flags: '--amount <dollars>',
        description: 'a new amount (default: unchanged)',
        parse: amountOption,
      },
      {
        flags: '--thresholds <percents>',
        description: 'new comma-separated percents (default: unchanged)',
        parse: thresholdsOption,
      },
      ...scopeOptions('unchanged'),
      {
        flags: '--clear <keys>',
        description: `scope keys to remove, comma-separated: ${SCOPE_KEYS.join(', ')} (default: none)`,
        parse: clearOption,
      },
    ],
    examples: ['gpumkt budgets update 12 --amount 300', 'gpumkt budgets update 12 --clear label'],
    handler: updateBudget,
  });
  addCommand(kit, budgets, 'delete', {
    description: 'Delete a budget and its alerts',
    arguments: [budgetId],
    examples: ['gpumkt budgets delete 12'],
    handler: deleteBudget,
  });
  addCommand(kit, budgets, 'alerts', {
    description: 'List the thresholds a budget crossed, newest first',
    arguments: [budgetId],
    examples: ['gpumkt budgets alerts 12', 'gpumkt budgets alerts 12 --raw'],
    handler: budgetAlerts,
  });
}

import { numberOption } from '../options/validation';
import { CommandKit } from './command-kit';
import {
  addCommand,
  addGroup,
  allowOption,
  idArgument,
  permissionFileOption,
} from './command-spec';
import {
  auditLog,
  createKey,
  deleteKey,
  endSessions,
  listKeys,
  listSessions,
  resetKey,
  showKey,
} from './access.handlers';

/** The api serves at most this many entries per page. */
const AUDIT_MAX_LIMIT = 500;

/** `keys ...`, `sessions ...` and `audit` (docs/access.md). */
export function registerAccessCommands(kit: CommandKit): void {
  const keys = addGroup(
    kit.program,
    'keys',
    'Your API keys: create scoped or expiring keys, list, show, delete, reset',
    'gpumkt keys list',
    'gpumkt keys create --name ci --allow misc',
  );
  addCommand(kit, keys, 'create', {
    description:
      'Create an API key; the key is printed this once. Without --allow or --permission-file it ' +
      'is a full key; never more than the key you run this with',
    options: [
      { flags: '--name <name>', description: 'a name to tell it apart (default: none)' },
      permissionFileOption(
        'a permission document, JSON {"api": {...}} as in docs/access.md (default: none, a full key)',
      ),
      allowOption(
        'shorthand for a document granting these whole categories, e.g. billing_read misc (default: none)',
      ),
      {
        flags: '--key-params <json>',
        description: 'key_params, e.g. \'{"ip_whitelist": ["203.0.113.0/24"]}\' (default: none)',
      },
      {
        flags: '--expires <when>',
        description: 'a lifetime (90m, 12h, 30d, 2w) or a UTC date or time (default: never)',
      },
    ],
    examples: [
      'gpumkt keys create --name accountant --allow billing_read',
      'gpumkt keys create --name ci --permission-file ci-key.json --expires 30d',
      'gpumkt keys create --name office --allow user_read --key-params \'{"ip_whitelist": ["203.0.113.0/24"]}\'',
    ],
    handler: createKey,
  });
  addCommand(kit, keys, 'list', {
    description: 'List your API keys (never the keys themselves)',
    examples: ['gpumkt keys list', 'gpumkt keys list --raw'],
    handler: listKeys,
  });
  addCommand(kit, keys, 'show', {
    description: 'Show one API key: its permissions, key_params, last use and expiry',
    arguments: [idArgument('key id (gpumkt keys list)')],
    examples: ['gpumkt keys show 1000042'],
    handler: showKey,
  });
  addCommand(kit, keys, 'delete', {
    description: 'Delete an API key: it stops working at once (the main key is reset instead)',
    arguments: [idArgument('key id (gpumkt keys list)')],
    examples: ['gpumkt keys delete 1000042'],
    handler: deleteKey,
  });
  addCommand(kit, keys, 'reset', {
    description: 'Replace your main API key; the old one stops working at once',
    examples: ['gpumkt keys reset', 'gpumkt keys reset --raw'],
    handler: resetKey,
  });

  const sessions = addGroup(
    kit.program,
    'sessions',
    'Your login sessions: list them, end one, or sign out everywhere',
    'gpumkt sessions list',
    'gpumkt sessions end --all',
  );
  addCommand(kit, sessions, 'list', {
    description: 'List your live sessions, newest first (* marks this one)',
    examples: ['gpumkt sessions list'],
    handler: listSessions,
  });
  addCommand(kit, sessions, 'end', {
    description:
      'End one session, or with --all every other session and every trusted device (API keys stay)',
    arguments: [idArgument('session id (gpumkt sessions list)', '[id]')],
    options: [{ flags: '--all', description: 'sign out everywhere else (default: off)' }],
    examples: ['gpumkt sessions end 1000007', 'gpumkt sessions end --all'],
    handler: endSessions,
  });

  addCommand(kit, kit.program, 'audit', {
    description:
      'Your audit log, newest first: every write and export made with your keys and sessions',
    options: [
      {
        flags: '-l, --limit <n>',
        description: `entries per page, 1 to ${AUDIT_MAX_LIMIT} (default: 100)`,
        parse: numberOption({ integer: true, min: 1, max: AUDIT_MAX_LIMIT }),
      },
      {
        flags: '-n, --next <token>',
        description: 'continue with the page after this one (default: the newest)',
      },
    ],
    examples: ['gpumkt audit', 'gpumkt audit --limit 20', 'gpumkt audit --raw'],
    handler: auditLog,
  });
}

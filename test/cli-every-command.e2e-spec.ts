import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi, TestApi } from '@test/support/api';
import {
  CLI_MAIN,
  CliResult,
  expectExplained,
  expectNoStackTrace,
  ExplainedRequest,
  runCli,
  tempConfigHome,
} from '@test/support/cli';

/**
 * Every command of gpumkt, one table each: the request it explains, the api error it
 * reports (exit 1, plain and --raw), the usage mistake it refuses (exit 2, nothing sent),
 * and its help text. The successful outputs are in the other cli-*.e2e-spec files.
 */

// -s 2026-01-01 -e 2026-01-02: from 2026-01-01T00:00Z to the end of 2026-01-02.
const CHARGES_URL =
  '/api/v0/charges/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A1767225600%2C%22lte%22%3A1767398399%7D%7D' +
  '&latest_first=false&limit=20&format=table';
const CHARGES_QUERY = [
  'select_filters = {"day":{"gte":1767225600,"lte":1767398399}}',
  'latest_first = false',
  'limit = 20',
  'format = table',
];

/** Each command that calls the api, with the request --explain must show. */
const API_COMMANDS: {
  args: string[];
  request: Omit<ExplainedRequest, 'url'> & { path: string };
}[] = [
  { args: ['show', 'user'], request: { method: 'GET', path: '/api/v0/users/current' } },
  {
    args: ['show', 'statement', '--by', 'endpoint', '-s', '2026-01-01', '-e', '2026-01-02'],
    request: {
      method: 'GET',
      path:
        '/api/v0/charges/summary/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A1767225600%2C%22lte%22%3A1767398399%7D%7D' +
        '&period=month&group_by=endpoint',
      query: [
        'select_filters = {"day":{"gte":1767225600,"lte":1767398399}}',
        'period = month',
        'group_by = endpoint',
      ],
    },
  },
  {
    args: ['show', 'invoices', '--charges', '-s', '2026-01-01', '-e', '2026-01-02'],
    request: { method: 'GET', path: CHARGES_URL, query: CHARGES_QUERY },
  },
  {
    args: ['show', 'invoices-v1', '-c', '-s', '2026-01-01', '-e', '2026-01-02'],
    request: { method: 'GET', path: CHARGES_URL, query: CHARGES_QUERY },
  },
  {
    args: ['unlist', 'volume', '5012'],
    request: { method: 'POST', path: '/api/v0/volumes/unlist', body: '{"id":5012}' },
  },
  {
    args: ['create', 'endpoint', '--endpoint_name', 'llm', '--min_load', '10.5'],
    request: {
      method: 'POST',
      path: '/api/v0/endptjobs/',
      body:
        '{"client_id":"me","min_load":10.5,"min_cold_load":0,"target_util":0.9,"cold_mult":2.5,' +
        '"cold_workers":5,"max_workers":20,"endpoint_name":"llm","max_queue_time":30,' +
        '"target_queue_time":10,"inactivity_timeout":null,"autoscaler_instance":"prod"}',
    },
  },
  { args: ['show', 'endpoints'], request: { method: 'GET', path: '/api/v0/endptjobs/' } },
  {
    args: ['update', 'endpoint', '42', '--max_workers', '30', '--endpoint_state', 'stopped'],
    request: {
      method: 'PUT',
      path: '/api/v0/endptjobs/42/',
      body:
        '{"client_id":"me","endptjob_id":42,"min_load":null,"min_cold_load":null,' +
        '"target_util":null,"cold_mult":null,"cold_workers":null,"max_workers":30,' +
        '"endpoint_name":null,"endpoint_state":"stopped","max_queue_time":null,' +
        '"target_queue_time":null,"inactivity_timeout":null,"autoscaler_instance":"prod"}',
    },
  },
  {
    args: ['delete', 'endpoint', '42'],
    request: {
      method: 'DELETE',
      path: '/api/v0/endptjobs/42/',
      body: '{"client_id":"me","endptjob_id":42}',
    },
  },
  { args: ['tfa', 'status'], request: { method: 'GET', path: '/api/v0/tfa/status/' } },
  {
    args: ['tfa', 'events', '--limit', '20', '--next', 'TOKEN1'],
    request: {
      method: 'GET',
      path: '/api/v0/tfa/events/?limit=20&after_token=TOKEN1',
      query: ['limit = 20', 'after_token = TOKEN1'],
    },
  },
  { args: ['tfa', 'devices'], request: { method: 'GET', path: '/api/v0/tfa/devices/' } },
  {
    args: ['tfa', 'devices', '--revoke', '42'],
    request: { method: 'DELETE', path: '/api/v0/tfa/devices/42/', body: '{}' },
  },
  {
    args: ['tfa', 'send-email'],
    request: { method: 'POST', path: '/api/v0/tfa/email/', body: '{}' },
  },
  {
    args: ['tfa', 'send-sms', '-p', '+15551234567'],
    request: { method: 'POST', path: '/api/v0/tfa/sms/', body: '{"phone_number":"+15551234567"}' },
  },
  {
    args: ['tfa', 'send-sms', '--method-id', '12'],
    request: { method: 'POST', path: '/api/v0/tfa/sms/', body: '{"tfa_method_id":12}' },
  },
  {
    args: ['tfa', 'resend-sms', '-s', 'SEC1', '-p', '+15551234567'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/sms/resend/',
      body: '{"secret":"SEC1","phone_number":"+15551234567"}',
    },
  },
  {
    args: ['tfa', 'totp-setup'],
    request: { method: 'POST', path: '/api/v0/tfa/totp-setup/', body: '{}' },
  },
  {
    args: ['tfa', 'auth-new'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/authorize-new-method/',
      body: '{"tfa_method":"email"}',
    },
  },
  {
    args: ['tfa', 'auth-new', '-bc', 'ABCD-EFGH-JKLM'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/authorize-new-method/',
      body: '{"backup_code":"ABCD-EFGH-JKLM"}',
    },
  },
  {
    args: ['tfa', 'auth-new', '-s', 'SEC2', '-c', '123456'],
    request: {
      method: 'PUT',
      path: '/api/v0/tfa/authorize-new-method/',
      body: '{"secret":"SEC2","code":"123456"}',
    },
  },
  {
    args: ['tfa', 'activate', '123456', '--secret', 'SEC3', '-t', 'sms', '-p', '+15551234567'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/confirm-new/',
      body: '{"tfa_method":"sms","code":"123456","secret":"SEC3","phone_number":"+15551234567"}',
    },
  },
  {
    args: ['tfa', 'login', '-t', 'totp', '-c', '123456'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/',
      body: '{"tfa_method":"totp","code":"123456"}',
    },
  },
  {
    args: ['tfa', 'login', '-bc', 'ABCD-EFGH-JKLM', '-id', '9'],
    request: {
      method: 'POST',
      path: '/api/v0/tfa/',
      body: '{"tfa_method_id":9,"backup_code":"ABCD-EFGH-JKLM"}',
    },
  },
  {
    args: ['tfa', 'delete', '-t', 'sms', '-c', '123456', '-s', 'SEC4', '-id', '7', '--yes'],
    request: {
      method: 'DELETE',
      path: '/api/v0/tfa/',
      body: '{"tfa_method":"sms","code":"123456","secret":"SEC4","target_id":7}',
    },
  },
  {
    args: ['tfa', 'regen-codes', '-t', 'totp', '-c', '123456', '--yes'],
    request: {
      method: 'PUT',
      path: '/api/v0/tfa/regen-backup-codes/',
      body: '{"tfa_method":"totp","code":"123456"}',
    },
  },
  {
    args: ['tfa', 'update', '7', '-l', 'Work phone', '-p', 'f'],
    request: {
      method: 'PUT',
      path: '/api/v0/tfa/update/',
      body: '{"tfa_method_id":7,"label":"Work phone","is_primary":false}',
    },
  },
  {
    args: ['keys', 'create', '--name', 'ci', '--allow', 'billing_read', 'misc', '--expires', '30d'],
    request: {
      method: 'POST',
      path: '/api/v0/auth/apikeys/',
      body: '{"name":"ci","permissions":{"api":{"billing_read":{},"misc":{}}},"ttl":2592000}',
    },
  },
  {
    args: [
      'keys',
      'create',
      '--key-params',
      '{"ip_whitelist":["10.0.0.0/8"]}',
      '--expires',
      '2027-01-31',
    ],
    request: {
      method: 'POST',
      path: '/api/v0/auth/apikeys/',
      body: '{"key_params":{"ip_whitelist":["10.0.0.0/8"]},"expires_at":"2027-01-31T00:00:00Z"}',
    },
  },
  { args: ['keys', 'list'], request: { method: 'GET', path: '/api/v0/auth/apikeys/' } },
  { args: ['keys', 'show', '42'], request: { method: 'GET', path: '/api/v0/auth/apikeys/42/' } },
  {
    args: ['keys', 'delete', '42'],
    request: { method: 'DELETE', path: '/api/v0/auth/apikeys/42/', body: '{}' },
  },
  {
    args: ['keys', 'reset'],
    request: { method: 'PUT', path: '/api/v0/commands/reset_apikey/', body: '{"client_id":"me"}' },
  },
  {
    args: ['team', 'create', '--name', 'engines', '--transfer-credit', '2.5'],
    request: {
      method: 'POST',
      path: '/api/v0/team/',
      body: '{"team_name":"engines","transfer_credit":2.5}',
    },
  },
  { args: ['team', 'destroy'], request: { method: 'DELETE', path: '/api/v0/team/', body: '{}' } },
  {
    args: ['team', 'policy', '--require-tfa', 'on'],
    request: { method: 'PUT', path: '/api/v0/team/', body: '{"require_tfa":true}' },
  },
  { args: ['team', 'members'], request: { method: 'GET', path: '/api/v0/team/members/' } },
  {
    args: ['team', 'invite', '--email', 'ada@example.com', '--role', 'member'],
    request: {
      method: 'POST',
      path: '/api/v0/team/invite/?email=ada%40example.com&role=member',
      query: ['email = ada@example.com', 'role = member'],
      body: '{}',
    },
  },
  {
    args: ['team', 'remove', '42'],
    request: { method: 'DELETE', path: '/api/v0/team/members/42/', body: '{}' },
  },
  { args: ['team', 'roles'], request: { method: 'GET', path: '/api/v0/team/roles-full/' } },
  {
    args: ['team', 'role', 'show', 'reader'],
    request: { method: 'GET', path: '/api/v0/team/roles/reader/' },
  },
  {
    args: ['team', 'role', 'create', '--name', 'reader', '--allow', 'billing_read'],
    request: {
      method: 'POST',
      path: '/api/v0/team/roles/',
      body: '{"name":"reader","permissions":{"api":{"billing_read":{}}}}',
    },
  },
  {
    args: ['team', 'role', 'update', '42', '--name', 'auditor'],
    request: { method: 'PUT', path: '/api/v0/team/roles/42/', body: '{"name":"auditor"}' },
  },
  {
    args: ['team', 'role', 'remove', 'reader'],
    request: { method: 'DELETE', path: '/api/v0/team/roles/reader/', body: '{}' },
  },
  {
    args: ['team', 'role', 'set', '42', 'manager'],
    request: { method: 'PUT', path: '/api/v0/team/members/42/', body: '{"role":"manager"}' },
  },
  { args: ['team', 'invitations'], request: { method: 'GET', path: '/api/v0/team/invitations/' } },
  {
    args: ['team', 'accept', 'gmi_TOKEN'],
    request: { method: 'POST', path: '/api/v0/team/accept/', body: '{"token":"gmi_TOKEN"}' },
  },
  {
    args: ['team', 'decline', 'gmi_TOKEN'],
    request: { method: 'POST', path: '/api/v0/team/decline/', body: '{"token":"gmi_TOKEN"}' },
  },
  {
    args: ['team', 'revoke', '42'],
    request: { method: 'DELETE', path: '/api/v0/team/invitations/42/', body: '{}' },
  },
  { args: ['sessions', 'list'], request: { method: 'GET', path: '/api/v0/auth/sessions/' } },
  {
    args: ['sessions', 'end', '7'],
    request: { method: 'DELETE', path: '/api/v0/auth/sessions/', body: '{"id":7}' },
  },
  {
    args: ['sessions', 'end', '--all'],
    request: { method: 'DELETE', path: '/api/v0/auth/sessions/', body: '{"all":true}' },
  },
  {
    args: ['audit', '--limit', '20', '--next', 'TOKEN2'],
    request: {
      method: 'GET',
      path: '/api/v0/audit_logs/?limit=20&after_token=TOKEN2',
      query: ['limit = 20', 'after_token = TOKEN2'],
    },
  },
  { args: ['budgets', 'list'], request: { method: 'GET', path: '/api/v0/budgets/' } },
  {
    args: ['budgets', 'create', '--name', 'gpu', '--amount', '250.5', '--period', 'month'],
    request: {
      method: 'POST',
      path: '/api/v0/budgets/',
      body: '{"name":"gpu","amount":"250.5","period":"month"}',
    },
  },
  { args: ['budgets', 'show', '42'], request: { method: 'GET', path: '/api/v0/budgets/42/' } },
  {
    args: ['budgets', 'update', '42', '--thresholds', '80,100', '--clear', 'label'],
    request: {
      method: 'PUT',
      path: '/api/v0/budgets/42/',
      body: '{"thresholds":[80,100],"label":null}',
    },
  },
  {
    args: ['budgets', 'delete', '42'],
    request: { method: 'DELETE', path: '/api/v0/budgets/42/', body: '{}' },
  },
  {
    args: ['budgets', 'alerts', '42'],
    request: { method: 'GET', path: '/api/v0/budgets/42/alerts/' },
  },
  { args: ['webhooks', 'list'], request: { method: 'GET', path: '/api/v0/webhooks/' } },
  {
    args: ['webhooks', 'create', 'https://hooks.example.com/in', '--events', 'webhook.test'],
    request: {
      method: 'POST',
      path: '/api/v0/webhooks/',
      body: '{"url":"https://hooks.example.com/in","events":["webhook.test"]}',
    },
  },
  {
    args: ['webhooks', 'show', 'wh_abc'],
    request: { method: 'GET', path: '/api/v0/webhooks/wh_abc/' },
  },
  {
    args: ['webhooks', 'delete', 'wh_abc'],
    request: { method: 'DELETE', path: '/api/v0/webhooks/wh_abc/', body: '{}' },
  },
  {
    args: ['webhooks', 'rotate-secret', 'wh_abc'],
    request: { method: 'POST', path: '/api/v0/webhooks/wh_abc/rotate_secret/', body: '{}' },
  },
  {
    args: ['webhooks', 'test', 'wh_abc'],
    request: { method: 'POST', path: '/api/v0/webhooks/wh_abc/test/', body: '{}' },
  },
  {
    args: ['webhooks', 'deliveries', 'wh_abc'],
    request: { method: 'GET', path: '/api/v0/webhooks/wh_abc/deliveries/' },
  },
  {
    args: ['webhooks', 'resend', 'wh_abc', 'd-1'],
    request: {
      method: 'POST',
      path: '/api/v0/webhooks/wh_abc/deliveries/d-1/resend/',
      body: '{}',
    },
  },
];

/** A mistake for each command, refused before anything is sent. */
const USAGE_MISTAKES: { args: string[]; says: string | RegExp }[] = [
  { args: ['set', 'api-key'], says: 'no API key on standard input' },
  { args: ['set', 'api-key', ' '], says: 'the API key must not be empty' },
  { args: ['show', 'user', '--verbose'], says: "unknown option '--verbose'" },
  { args: ['show', 'invoices'], says: 'add --charges (-c)' },
  {
    args: ['show', 'invoices', '-c', '--tz', 'Asia/Tokyo'],
    says: '--tz needs --export FILE (the charges report itself is in UTC days)',
  },
  {
    args: ['show', 'invoices', '-c', '--export', 'x.csv', '--tz', 'Mars/Olympus'],
    says: "'Mars/Olympus' is not an IANA time zone name",
  },
  {
    args: ['show', 'invoices-v1', '-c', '-e', '2026-02-30'],
    says: "--end-date '2026-02-30' is not a date: use YYYY-MM-DD (UTC) or unix seconds",
  },
  {
    args: ['show', 'invoices', '-c', '-s', '2026-01-05', '-e', '2026-01-01'],
    says: '--start-date must not be after --end-date',
  },
  { args: ['show', 'invoices', '-c', '-ct', 'gpu'], says: "--charge-type 'gpu' is not one of" },
  { args: ['show', 'invoices', '-c', '-f', 'list'], says: 'Allowed: table, tree, csv, ndjson.' },
  {
    args: ['show', 'invoices', '-c', '-f', 'csv'],
    says: '--format csv needs --export FILE (for CSV on stdout use --csv)',
  },
  {
    args: ['show', 'invoices', '-c', '--export', 'x.csv', '--all'],
    says: '--export cannot be combined with --all',
  },
  {
    args: ['show', 'invoices', '-c', '--export', 'x.csv', '-f', 'tree'],
    says: '--export writes csv or ndjson, not tree',
  },
  { args: ['show', 'statement', '--period', 'year'], says: 'Allowed: day, week, month.' },
  {
    args: ['show', 'statement', '-s', '2026-01-05', '-e', '2026-01-01'],
    says: '--start-date must not be after --end-date',
  },
  { args: ['show', 'invoices', '-c', '-l', '501'], says: 'Must be at most 500.' },
  {
    args: ['show', 'invoices', '-c', '--csv', '--raw'],
    says: '--csv and --raw cannot be combined',
  },
  { args: ['unlist', 'volume', '0'], says: 'Must be at least 1.' },
  { args: ['unlist', 'volume'], says: "missing required argument 'id'" },
  { args: ['create', 'endpoint', '--target_util', '1.5'], says: 'Must be at most 1.0.' },
  { args: ['create', 'endpoint', '--max_workers', '2.5'], says: 'Expected a whole number.' },
  {
    args: ['create', 'endpoint', '--target_queue_time', '40'],
    says: '--target_queue_time (40) must not exceed --max_queue_time (30)',
  },
  { args: ['show', 'endpoints', 'extra'], says: 'too many arguments' },
  { args: ['update', 'endpoint', '42'], says: 'nothing to change' },
  { args: ['update', 'endpoint', '42', '--endpoint_state', 'paused'], says: 'Allowed: active' },
  { args: ['delete', 'endpoint', 'abc'], says: 'Expected a whole number.' },
  { args: ['tfa', 'status', '--all'], says: "unknown option '--all'" },
  { args: ['tfa', 'send-email', 'now'], says: 'too many arguments' },
  { args: ['tfa', 'send-sms', '--method-id', '0'], says: 'Must be at least 1.' },
  { args: ['tfa', 'resend-sms'], says: "required option '-s, --secret <secret>' not specified" },
  { args: ['tfa', 'totp-setup', '--qr'], says: "unknown option '--qr'" },
  { args: ['tfa', 'auth-new', '-c', '123456'], says: '--code needs the --secret' },
  {
    args: ['tfa', 'auth-new', '-s', 'SEC2', '-c', '12345'],
    says: '--code must be the 6 digits your authenticator app, SMS or email shows (this one has 5 digits)',
  },
  { args: ['tfa', 'activate', '1234567', '--secret', 'S'], says: 'CODE must be the 6 digits' },
  { args: ['tfa', 'login', '-t', 'totp', '-c', '12a456'], says: 'not all digits' },
  {
    args: ['tfa', 'activate', '123456'],
    says: "required option '--secret <secret>' not specified",
  },
  { args: ['tfa', 'activate', '123456', '--secret', 'S', '-t', 'sms'], says: '--phone-number' },
  { args: ['tfa', 'login'], says: 'give exactly one of --code (-c) or --backup-code (-bc)' },
  { args: ['tfa', 'login', '-c', '123456'], says: '-t totp for an authenticator app' },
  { args: ['tfa', 'login', '-t', 'sms', '-c', '123456'], says: 'an sms code needs --secret' },
  { args: ['tfa', 'delete', '-t', 'totp', '-c', '123456'], says: 'pass --yes' },
  { args: ['tfa', 'delete', '-bc', 'ABCD-EFGH-JKLM', '--yes'], says: '--id-to-delete (-id)' },
  { args: ['tfa', 'regen-codes', '-t', 'totp', '-c', '123456'], says: 'pass --yes' },
  { args: ['tfa', 'update', '7'], says: 'nothing to change' },
  { args: ['tfa', 'update', '7', '-p', 'yes'], says: 'Expected true or false.' },
  { args: ['tfa', 'update', '7', '-l', 'x'.repeat(31)], says: 'Use 1 to 30 characters' },
  { args: ['tfa', 'events', '--limit', '501'], says: 'Must be at most 500.' },
  { args: ['tfa', 'events', 'all'], says: 'too many arguments' },
  { args: ['tfa', 'devices', '--revoke', 'abc'], says: 'Expected a whole number.' },
  {
    args: ['keys', 'create', '--allow', 'misc', '--permission-file', 'p.json'],
    says: 'give --permission-file or --allow, not both',
  },
  { args: ['keys', 'create', '--permission-file', '/no/such/file.json'], says: 'cannot read' },
  { args: ['keys', 'create', '--key-params', '{ip'], says: '--key-params must be a JSON object' },
  { args: ['keys', 'create', '--expires', 'soon'], says: "--expires 'soon'" },
  { args: ['keys', 'show'], says: "missing required argument 'id'" },
  { args: ['keys', 'delete', 'abc'], says: 'Expected a whole number.' },
  {
    args: ['budgets', 'create', '--name', 'x', '--amount', '1', '--period', 'year'],
    says: 'Allowed: day, week, month.',
  },
  {
    args: ['budgets', 'create', '--name', 'x', '--amount', 'ten', '--period', 'day'],
    says: 'Expected an amount such as 250 or 250.50.',
  },
  { args: ['budgets', 'update', '42'], says: 'nothing to change' },
  { args: ['budgets', 'update', '42', '--clear', 'name'], says: "Unknown scope key 'name'" },
  { args: ['budgets', 'show', 'abc'], says: 'Expected a whole number.' },
  { args: ['budgets', 'alerts'], says: "missing required argument 'id'" },
  { args: ['budgets', 'list', 'all'], says: 'too many arguments' },
  { args: ['keys', 'reset', 'now'], says: 'too many arguments' },
  { args: ['webhooks', 'create'], says: "missing required argument 'url'" },
  {
    args: ['webhooks', 'create', 'https://h.example/', '--events', 'budget.exceeded'],
    says: "Unknown event type 'budget.exceeded'",
  },
  { args: ['webhooks', 'list', 'all'], says: 'too many arguments' },
  { args: ['webhooks', 'show'], says: "missing required argument 'id'" },
  { args: ['webhooks', 'delete'], says: "missing required argument 'id'" },
  { args: ['webhooks', 'rotate-secret'], says: "missing required argument 'id'" },
  { args: ['webhooks', 'test'], says: "missing required argument 'id'" },
  { args: ['webhooks', 'deliveries'], says: "missing required argument 'id'" },
  { args: ['webhooks', 'resend', 'wh_abc'], says: "missing required argument 'delivery-id'" },
  { args: ['team', 'create'], says: "required option '--name <name>' not specified" },
  { args: ['team', 'policy', '--require-tfa', 'maybe'], says: '--require-tfa takes on or off' },
  { args: ['team', 'remove', 'abc'], says: 'Expected a whole number.' },
  { args: ['team', 'role', 'create', '--name', 'x'], says: 'give --permission-file or --allow' },
  { args: ['sessions', 'end'], says: 'give the session to end' },
  { args: ['sessions', 'end', '7', '--all'], says: 'give the session to end' },
  { args: ['audit', '--limit', '0'], says: 'Must be at least 1.' },
  { args: ['completion', 'fish'], says: 'Allowed: bash, zsh.' },
  { args: ['--retry', 'many', 'show', 'user'], says: 'Expected a whole number.' },
  { args: ['--url', 'localhost:3000', 'show', 'user'], says: 'must start with http://' },
  { args: ['frobnicate'], says: "unknown command 'frobnicate'" },
];

/** Every command path, as the completion script lists them; the help test covers each. */
const COMMAND_PATHS = [
  '',
  'set',
  'set api-key',
  'show',
  'show user',
  'show invoices',
  'show invoices-v1',
  'show statement',
  'show endpoints',
  'unlist',
  'unlist volume',
  'create',
  'create endpoint',
  'update',
  'update endpoint',
  'delete',
  'delete endpoint',
  'tfa',
  'tfa status',
  'tfa send-email',
  'tfa send-sms',
  'tfa resend-sms',
  'tfa totp-setup',
  'tfa auth-new',
  'tfa activate',
  'tfa login',
  'tfa logout',
  'tfa delete',
  'tfa regen-codes',
  'tfa update',
  'tfa events',
  'tfa devices',
  'keys',
  'keys create',
  'keys list',
  'keys show',
  'keys delete',
  'keys reset',
  'team',
  'team create',
  'team destroy',
  'team policy',
  'team members',
  'team invite',
  'team remove',
  'team roles',
  'team role',
  'team role show',
  'team role create',
  'team role update',
  'team role remove',
  'team role set',
  'team invitations',
  'team accept',
  'team decline',
  'team revoke',
  'sessions',
  'sessions list',
  'sessions end',
  'audit',
  'budgets',
  'budgets list',
  'budgets create',
  'budgets show',
  'budgets update',
  'budgets delete',
  'budgets alerts',
  'webhooks',
  'webhooks list',
  'webhooks create',
  'webhooks show',
  'webhooks delete',
  'webhooks rotate-secret',
  'webhooks test',
  'webhooks deliveries',
  'webhooks resend',
  'completion',
];

describe('gpumkt: every command', () => {
  let api: TestApi;
  const key = `no-such-key-${randomUUID()}`;
  const env = () => ({ GPUMKT_URL: api.url, XDG_CONFIG_HOME: tempConfigHome() });

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it.each(API_COMMANDS.map((entry) => [entry.args.join(' '), entry] as const))(
    '%s: explains its request and reports the api error with exit 1, plain and --raw',
    async (_name, { args, request }) => {
      const plain = await runCli([...args, '--explain', '--api-key', key], { env: env() });
      expect(plain.code).toBe(1);
      expect(plain.stdout).toBe('');
      expectExplained(plain.stderr, { ...request, url: `${api.url}${request.path}` }, key);
      expect(plain.stderr.endsWith('\nError 404 auth_error: Invalid user key\n')).toBe(true);
      expectNoStackTrace(plain);

      // --raw: nothing on stdout, the api's error body as one JSON line on stderr.
      const raw = await runCli(['--raw', ...args, '--api-key', key], { env: env() });
      expect(raw.code).toBe(1);
      expect(raw.stdout).toBe('');
      expect(JSON.parse(raw.stderr)).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
    },
  );

  it.each(USAGE_MISTAKES.map((entry) => [entry.args.join(' '), entry] as const))(
    '%s: is a usage error (exit 2, one message, nothing sent)',
    async (_name, { args, says }) => {
      const result = await runCli([...args, '--explain', '--api-key', key], { env: env() });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: /);
      if (typeof says === 'string') expect(result.stderr).toContain(says);
      else expect(result.stderr).toMatch(says);
      expect(result.stderr).not.toContain('[explain]');
      expectNoStackTrace(result);
    },
  );

  it('refuses --output to an existing file before the codes are requested', async () => {
    const existing = join(mkdtempSync(join(tmpdir(), 'gpumkt-out-')), 'codes.txt');
    writeFileSync(existing, 'keep me');
    for (const args of [
      ['tfa', 'activate', '123456', '--secret', 'S', '-o', existing],
      ['tfa', 'regen-codes', '-t', 'totp', '-c', '123456', '--yes', '-o', existing],
      ['tfa', 'regen-codes', '-t', 'totp', '-c', '123456', '--yes', '-o', '/no/such/dir/c.txt'],
    ]) {
      const result = await runCli([...args, '--explain', '--api-key', key], { env: env() });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/already exists|does not exist/);
      expect(result.stderr).not.toContain('[explain]');
    }
  });

  it('has help for every command: each option with its default, and examples', async () => {
    // The completion script is generated from the command tree: a new command must be
    // added to COMMAND_PATHS, so it cannot escape this test.
    const completion = await runCli(['completion', 'bash']);
    const listed = [...completion.stdout.matchAll(/^ {6}"([^"]+)"\) path=/gm)].map((m) => m[1]);
    expect(['', ...listed].sort()).toEqual([...COMMAND_PATHS].sort());

    // A help text each, from four processes at a time (over a hundred in all).
    const helps = new Map<string, CliResult>();
    const queue = [...COMMAND_PATHS];
    const reader = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift())
        helps.set(path, await runCli([...(path ? path.split(' ') : []), '--help']));
    };
    await Promise.all(Array.from({ length: 4 }, reader));
    for (const path of COMMAND_PATHS) {
      const help = helps.get(path)!;
      expect({ path, code: help.code, stderr: help.stderr }).toEqual({ path, code: 0, stderr: '' });
      expect({ path, examples: /\nExamples:\n {2}\$ .*\bgpumkt /.test(help.stdout) }).toEqual({
        path,
        examples: true,
      });
      for (const option of optionsOf(help.stdout)) {
        if (option.flags === '-h, --help') continue;
        // Each option says what happens without it: its default, or that it is required.
        expect({ path, ...option, explained: /\(default: |required/.test(option.text) }).toEqual({
          path,
          ...option,
          explained: true,
        });
      }
    }
    // Over a hundred processes: on a machine whose cores other files share, minutes.
  }, 300_000);

  it('shows the spec defaults of create endpoint, and the global options with theirs', async () => {
    const help = await runCli(['create', 'endpoint', '--help']);
    const options = new Map(optionsOf(help.stdout).map((option) => [option.flags, option.text]));
    const defaults: Record<string, string> = {
      '--min_load <load>': '0.0',
      '--min_cold_load <load>': '0.0',
      '--target_util <fraction>': '0.9',
      '--cold_mult <factor>': '2.5',
      '--cold_workers <n>': '5',
      '--max_workers <n>': '20',
      '--endpoint_name <name>': 'none',
      '--max_queue_time <seconds>': '30.0',
      '--target_queue_time <seconds>': '10.0',
    };
    for (const [flags, value] of Object.entries(defaults)) {
      expect(options.get(flags)).toContain(`(default: ${value})`);
    }
    expect(options.get('--inactivity_timeout <seconds>')).toContain("(default: the server's");
    expect(options.get('--target_util <fraction>')).toContain('at most 1.0');
    expect(options.get('--retry <n>')).toContain('(default: 3)');
    expect(options.get('--url <url>')).toContain(
      '(default: $GPUMKT_URL, else http://127.0.0.1:3000)',
    );
    expect(options.get('--api-key <key>')).toContain('$GPUMKT_API_KEY');
    expect(options.get('--raw')).toContain('(default: off');
    expect(options.get('--explain')).toContain('(default: off)');
  });

  it('prints bash and zsh completion scripts that complete commands and options', async () => {
    const complete = async (shell: 'bash' | 'zsh', line: string): Promise<string[]> => {
      // zsh runs the same function through bashcompinit; bash stands in for it here,
      // with its zsh-only loader commands stubbed.
      const stubs =
        shell === 'zsh' ? 'autoload() { :; }; compinit() { :; }; bashcompinit() { :; };' : '';
      const script = [
        stubs,
        `source <(${shellWords([process.execPath, CLI_MAIN, 'completion', shell])})`,
        `read -ra COMP_WORDS <<< ${shellWords([line])}`,
        `[[ ${shellWords([line])} == *' ' ]] && COMP_WORDS+=('')`,
        'COMP_CWORD=$((${#COMP_WORDS[@]} - 1))',
        '_gpumkt',
        'printf "%s\\n" "${COMPREPLY[@]}"',
        'complete -p gpumkt >&2',
      ].join('\n');
      const result = await runShell(script);
      expect(result.stderr).toBe('complete -F _gpumkt gpumkt\n');
      return result.stdout.split('\n').filter(Boolean);
    };
    for (const shell of ['bash', 'zsh'] as const) {
      expect(await complete(shell, 'gpumkt ')).toEqual(
        expect.arrayContaining(['set', 'show', 'unlist', 'create', 'tfa', 'completion', '--raw']),
      );
      expect(await complete(shell, 'gpumkt tfa re')).toEqual(['resend-sms', 'regen-codes']);
      expect(await complete(shell, 'gpumkt --url http://x sh')).toEqual(['show']);
      expect(await complete(shell, 'gpumkt show invoices --ch')).toEqual([
        '--charges',
        '--charge-type',
      ]);
      expect(await complete(shell, 'gpumkt show invoices -c -c')).toEqual(['-c', '-ct']);
      expect(await complete(shell, 'gpumkt tfa delete -')).toEqual(
        expect.arrayContaining(['-bc', '-id', '--id-to-delete', '--yes']),
      );
    }
    const raw = await runCli(['completion', 'zsh', '--raw']);
    const document = JSON.parse(raw.stdout);
    expect(document.shell).toBe('zsh');
    expect(document.script).toContain('bashcompinit');
  });
});

/** The option lines of one help section (Options: and Global Options:), joined when wrapped. */
function optionsOf(help: string): { flags: string; text: string }[] {
  const options: { flags: string; text: string }[] = [];
  let inOptions = false;
  for (const line of help.split('\n')) {
    if (/^(Global )?Options:$/.test(line)) {
      inOptions = true;
      continue;
    }
    if (!inOptions) continue;
    if (line.trim() === '') {
      inOptions = false;
      continue;
    }
    const option = /^ {2}(-\S.*?) {2,}(.*)$/.exec(line);
    if (option) options.push({ flags: option[1], text: option[2] });
    else if (/^ {3,}\S/.test(line) && options.length > 0) {
      options[options.length - 1].text += ` ${line.trim()}`;
    }
  }
  return options;
}

function shellWords(words: string[]): string {
  return words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
}

function runShell(script: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', script]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

import type { Permissions, PermissionDocumentJson } from '@app/platform';
import { storedPermissions } from './api-key';

/** A team: an account of its own (credit, resources) that its members act in. */
export interface Team {
  id: number;
  name: string;
  /** Exact decimal text, as the column holds it. */
  credit: string;
  requireTfa: boolean;
  createdAt: Date;
}

/** A role of a team: a permission document (null for the owner role: every permission). */
export interface TeamRole {
  id: number;
  teamId: number;
  name: string;
  permissions: PermissionDocumentJson | null;
  isDefault: boolean;
}

export interface TeamMember {
  userId: number;
  email: string;
  fullName: string;
  username: string | null;
  roleId: number | null;
  roleName: string | null;
  joinedAt: Date;
}

export const OWNER_ROLE = 'owner';

/**
 * The roles every team starts with (docs/teams.md "Roles"): the owner may do everything,
 * the manager everything but destroying the team (every category, listed whole, so a
 * manager can never hand out the owner role), the member the instance categories and
 * their own account's view.
 */
export const DEFAULT_TEAM_ROLES: readonly { name: string; permissions: PermissionDocumentJson | null }[] = [
  { name: OWNER_ROLE, permissions: null },
  {
    name: 'manager',
    permissions: {
      api: {
        instance_read: {},
        instance_write: {},
        user_read: {},
        user_write: {},
        billing_read: {},
        billing_write: {},
        machine_read: {},
        machine_write: {},
        misc: {},
        team_read: {},
        team_write: {},
      },
    },
  },
  { name: 'member', permissions: { api: { instance_read: {}, instance_write: {}, user_read: {} } } },
];

export const TEAM_POLICY = {
  nameMaxLength: 64,
  roleNameMaxLength: 64,
  invitationTtlMs: 7 * 24 * 60 * 60 * 1000,
} as const;

export function rolePermissions(role: Pick<TeamRole, 'permissions'> | null): Permissions {
  if (!role || role.permissions === null) return { full: true };
  return storedPermissions(role.permissions);
}

/** The first thing wrong with a team name, or null. */
export function teamNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.trim().length === 0) return 'team_name is required';
  if (name.length > TEAM_POLICY.nameMaxLength)
    return `team_name is at most ${TEAM_POLICY.nameMaxLength} characters`;
  return null;
}

/**
 * The first thing wrong with a role name, or null. Names are path segments of
 * `/team/roles/{name}/`, so they are letters, digits, `_`, `-` and `.`, and never only
 * digits (`PUT /team/roles/{id}/` takes a number).
 */
export function roleNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'name is required';
  if (name.length > TEAM_POLICY.roleNameMaxLength)
    return `name is at most ${TEAM_POLICY.roleNameMaxLength} characters`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return 'name may hold only letters, digits, _, - and .';
  if (/^[0-9]+$/.test(name)) return 'name may not be a number';
  return null;
}

/**
 * The credit a create may move to the team: a non-negative amount with at most 4 decimals
 * (the column's scale), as exact decimal text; null when the input is not one.
 */
export function transferAmount(raw: unknown): string | null {
  if (raw === undefined || raw === null) return '0';
  const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : raw;
  if (typeof text !== 'string' || !/^[0-9]{1,12}(\.[0-9]{1,4})?$/.test(text)) return null;
  return text;
}

/** What an invitation's mail names: the team, the role and the one-time token. */
export interface InvitationText {
  teamName: string;
  roleName: string;
  token: string;
  expiresAt: Date;
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/**
 * The wording of a team invitation (docs/teams.md "Invitations"): the team, the role, the
 * token and how to use it. It says nothing about whether the address has an account.
 */
export function invitationContent(
  brand: string,
  invitation: InvitationText,
): { subject: string; text: string; html: string } {
  const expiry = `${invitation.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const lines = [
    `You are invited to join the ${brand} team "${invitation.teamName}" as ${invitation.roleName}.`,
    '',
    'To accept, sign in to your own account (create one with this address first if you have none) and run:',
    `  gpumkt team accept ${invitation.token}`,
    `or POST /api/v0/team/accept/ {"token": "${invitation.token}"} with your own key.`,
    `To decline: gpumkt team decline ${invitation.token}`,
    '',
    `The invitation expires at ${expiry} and works once, for this address only.`,
    'If you did not expect it, ignore this message.',
  ];
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif">',
    ...lines.map((line) => (line === '' ? '' : `<p>${escapeHtml(line)}</p>`)),
    '</body></html>',
  ].join('\n');
  return {
    subject: `${brand} team invitation: ${invitation.teamName}`,
    text: lines.join('\n'),
    html,
  };
}

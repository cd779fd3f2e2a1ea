import type { Command } from 'commander';
import * as list from './list.js';
import * as invite from './invite.js';
import * as update from './update.js';
import * as remove from './remove.js';
import * as accept from './accept.js';
import * as invitations from './invitations.js';
import * as revokeInvitation from './revoke-invitation.js';

export function registerMembers(program: Command): void {
  const members = program.command('members').description('members of the workspace, their roles and invitations (docs/server.md "Teams")');
  list.register(members);
  invite.register(members);
  update.register(members);
  remove.register(members);
  invitations.register(members);
  revokeInvitation.register(members);
  accept.register(members);
}

/** The workspaces of the local ledger: the API has none of these calls (a key belongs to one workspace). */
import type { Engine } from '../engine/engine.js';
import { allWorkspaces, createWorkspace, updateWorkspace, type WorkspaceInput, type WorkspacePatch } from '../engine/workspaces.js';

export function workspacesService(engine: Engine) {
  return {
    create: (input: WorkspaceInput) => createWorkspace(engine, input),
    update: (id: string, patch: WorkspacePatch) => updateWorkspace(engine, id, patch),
    list: () => allWorkspaces(engine),
    /** The workspace, or WORKSPACE_NOT_FOUND. */
    get: (id: string) => engine.workspace(id),
  };
}

export type WorkspacesService = ReturnType<typeof workspacesService>;

/** The workspaces of the local ledger: the API has none of these calls (a key belongs to one workspace). */
import type { Engine } from '../engine/engine.js';
import { allWorkspaces, createWorkspace, updateWorkspace, type WorkspaceInput, type WorkspacePatch } from '../engine/workspaces.js';

export class WorkspacesService {
  constructor(private readonly engine: Engine) {}

  create(input: WorkspaceInput) {
    return createWorkspace(this.engine, input);
  }

  update(id: string, patch: WorkspacePatch) {
    return updateWorkspace(this.engine, id, patch);
  }

  list() {
    return allWorkspaces(this.engine);
  }

  /** The workspace, or WORKSPACE_NOT_FOUND. */
  get(id: string) {
    return this.engine.workspace(id);
  }
}

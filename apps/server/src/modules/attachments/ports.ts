/*
 * What attachments asks of other modules, wired by app.ts (docs/ARCHITECTURE.md: a module never builds another's
 * service).
 */

/** The items of the playbooks module: whether the user has the playbook or missed trade with this id. */
export interface AttachmentItemsPort {
  itemExists(userId: string, target: 'playbook' | 'missed', id: string): Promise<boolean>;
}
